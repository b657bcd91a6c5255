#include "harness/child_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace sb {

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

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::vector<std::string>& set_env, const std::string& log_path) {
  std::vector<std::string> args = argv, env = environment_with(set_env);
  std::vector<char*> arg_ptrs = pointers(args), env_ptrs = pointers(env);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, 1, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  const int rc =
      posix_spawnp(&pid_, args[0].c_str(), &files, &attr, arg_ptrs.data(), env_ptrs.data());
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attr);
  if (rc != 0)
    throw std::runtime_error(fmt::format("cannot start {}: {}", args[0], std::strerror(rc)));
}

ChildProcess::~ChildProcess() {
  if (!ended_) kill();
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
  ::kill(-pid_, SIGKILL);
  int raw = 0;
  while (waitpid(pid_, &raw, 0) < 0 && errno == EINTR) {
  }
  ended_ = true;
}

}  // namespace sb
