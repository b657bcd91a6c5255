#include "harness/sweep/child_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace sb {
namespace {

// How long a child asked to stop has before it is killed.
constexpr std::chrono::seconds kStopGrace{10};

}  // namespace

std::string ExitStatus::describe() const {
  if (!signalled) return fmt::format("exit code {}", code);
  const char* name = sigabbrev_np(code);
  return fmt::format("killed by signal SIG{} ({})", name != nullptr ? name : "?", code);
}

std::vector<std::string> environment_with(const std::vector<std::string>& set_env) {
  std::vector<std::string> out;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const std::string& s : set_env) {
      replaced = replaced || entry.compare(0, s.find('=') + 1, s, 0, s.find('=') + 1) == 0;
    }
    if (!replaced) out.push_back(entry);
  }
  out.insert(out.end(), set_env.begin(), set_env.end());
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings)
    out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

namespace {

ExitStatus status_of(int raw) {
  if (WIFSIGNALED(raw)) return {true, WTERMSIG(raw)};
  return {false, WEXITSTATUS(raw)};
}

// `name` as exec finds it: itself if it names a path, else the first executable on PATH.
// Resolved before fork, because the search allocates, which a forked child must not.
std::string resolve(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return name;
}

// In the forked child, before exec: only async-signal-safe calls. Reports errno on `report`
// and exits if anything fails.
[[noreturn]] void become(const char* file, char* const* argv, char* const* envp, int log_fd,
                         int input_fd, int report, pid_t parent) {
  int err = 0;
  if (setpgid(0, 0) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) err = errno;
  // The parent may have ended before the death signal was armed: then nobody would send it.
  if (err == 0 && getppid() != parent) _exit(127);
  if (err == 0 && (dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0)) err = errno;
  if (err == 0 && input_fd >= 0 && dup2(input_fd, 0) < 0) err = errno;
  if (err == 0) {
    execve(file, argv, envp);
    err = errno;
  }
  const ssize_t ignored = write(report, &err, sizeof err);
  (void)ignored;
  _exit(127);
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::vector<std::string>& set_env, const std::string& log_path,
                           bool with_input) {
  std::vector<std::string> args = argv, env = environment_with(set_env);
  std::vector<char*> arg_ptrs = pointers(args), env_ptrs = pointers(env);
  const std::string file = resolve(args[0]);
  const int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    throw std::runtime_error(fmt::format("cannot create {}: {}", log_path, std::strerror(errno)));
  }
  // The child writes errno here if it cannot exec; exec closes it, so EOF means it started.
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    close(log_fd);
    throw std::runtime_error(fmt::format("cannot start {}: {}", args[0], std::strerror(errno)));
  }
  // A socket rather than a pipe, so that writing to a child that has ended fails (MSG_NOSIGNAL)
  // instead of raising SIGPIPE.
  int input[2] = {-1, -1};
  if (with_input && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, input) != 0) {
    close(log_fd);
    close(report[0]);
    close(report[1]);
    throw std::runtime_error(fmt::format("cannot start {}: {}", args[0], std::strerror(errno)));
  }
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ == 0)
    become(file.c_str(), arg_ptrs.data(), env_ptrs.data(), log_fd, input[1], report[1], parent);
  const int fork_errno = errno;
  close(log_fd);
  close(report[1]);
  if (with_input) {
    close(input[1]);
    input_ = input[0];
  }
  int child_errno = 0;
  ssize_t n = 0;
  if (pid_ > 0) {
    while ((n = read(report[0], &child_errno, sizeof child_errno)) < 0 && errno == EINTR) {
    }
  }
  close(report[0]);
  if (pid_ < 0 || n > 0) {
    if (pid_ > 0) kill();
    if (input_ >= 0) close(input_);
    const int err = pid_ < 0 ? fork_errno : child_errno;
    throw std::runtime_error(fmt::format("cannot start {}: {}", args[0], std::strerror(err)));
  }
}

ChildProcess::~ChildProcess() {
  if (!ended_) kill();
  if (input_ >= 0) close(input_);
}

bool ChildProcess::send(const std::string& line) {
  const std::string text = line + "\n";
  size_t sent = 0;
  while (input_ >= 0 && sent < text.size()) {
    const ssize_t n = ::send(input_, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return input_ >= 0;
}

std::optional<ExitStatus> ChildProcess::poll() {
  int raw = 0;
  const pid_t r = waitpid(pid_, &raw, WNOHANG);
  if (r == 0 || (r < 0 && errno == EINTR)) return std::nullopt;
  ended_ = true;
  if (r < 0) return ExitStatus{false, 127};
  // Whatever the point started goes with it.
  ::kill(-pid_, SIGKILL);
  return status_of(raw);
}

void ChildProcess::kill() {
  // Asked first: an MPI launcher (mpirun) starts its ranks in process groups of their own and
  // ends them when it is asked to stop, but killed outright it would leave them running.
  ::kill(-pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + kStopGrace;
  int raw = 0;
  pid_t ended = 0;
  while ((ended = waitpid(pid_, &raw, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ::kill(-pid_, SIGKILL);
  if (ended == 0) {
    while (waitpid(pid_, &raw, 0) < 0 && errno == EINTR) {
    }
  }
  ended_ = true;
}

}  // namespace sb
