#include "harness/sweep/sweep_guard.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/errors.hpp"
#include "harness/io/atomic_file.hpp"

namespace sb {
namespace {

namespace fs = std::filesystem;

// A file or folder the sweep needs that the OS refused: a write failure (exit 3), naming it.
WriteError os_error(const std::string& what, const std::string& path) {
  return WriteError(fmt::format("{} {}: {}", what, path, std::strerror(errno)));
}

bool same_file(int fd, const std::string& path) {
  struct stat held {
  }, named{};
  return fstat(fd, &held) == 0 && stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
         held.st_ino == named.st_ino;
}

// The pid the holder wrote into the lock file, for the message ("" if not written yet).
std::string holder_of(int fd) {
  std::array<char, 32> text{};
  const ssize_t n = pread(fd, text.data(), text.size() - 1, 0);
  return n > 0 ? fmt::format(" (pid {})", std::string(text.data(), static_cast<size_t>(n))) : "";
}

}  // namespace

ResultsLock::ResultsLock(const std::string& results_path) : path_(results_path + ".lock") {
  const fs::path parent = fs::path(results_path).parent_path();
  std::error_code error;
  if (!parent.empty()) fs::create_directories(parent, error);
  if (error) {
    throw WriteError(fmt::format("cannot make the folder {} for {}: {}", parent.string(),
                                 results_path, error.message()));
  }
  // The holder removes the file before it lets go: whoever locked the removed file retries on a
  // new one, so two sweeps never both hold "the" lock.
  for (;;) {
    fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw os_error("cannot create the lock file", path_);
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string holder = holder_of(fd_);
      close(fd_);
      if (err != EWOULDBLOCK) {
        errno = err;
        throw os_error("cannot lock", path_);
      }
      throw UsageError(fmt::format(
          "{}: another schedbench{} is writing it; accepted: one writer per results file at a "
          "time",
          results_path, holder));
    }
    if (same_file(fd_, path_)) break;
    close(fd_);
  }
  // Only for the message of a refused sweep: the lock holds without it.
  const std::string pid = std::to_string(getpid());
  if (ftruncate(fd_, 0) == 0) {
    const ssize_t ignored = pwrite(fd_, pid.data(), pid.size(), 0);
    (void)ignored;
  }
}

ResultsLock::~ResultsLock() {
  unlink(path_.c_str());
  close(fd_);
}

ScratchDir::ScratchDir(const std::string& results_path) {
  const fs::path results(results_path);
  const fs::path dir = results.has_parent_path() ? results.parent_path() : fs::path(".");
  const std::string prefix = results.filename().string() + ".scratch-";
  std::error_code ignored;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) fs::remove_all(e.path(), ignored);
  }
  path_ = (dir / (prefix + std::to_string(getpid()))).string();
  if (mkdir(path_.c_str(), 0700) != 0) throw os_error("cannot make the scratch directory", path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_stop_signal(int) {
  g_stop = 1;
}

constexpr std::array<int, 3> kStopSignals = {SIGINT, SIGTERM, SIGHUP};
using Handlers = std::array<struct sigaction, kStopSignals.size()>;
Handlers g_previous{};     // StopSignals'
Handlers g_before_lock{};  // LockRemovedOnStop's

// `handler` for every stop signal, the handlers before it kept in `previous`.
void handle_stops(void (*handler)(int), Handlers& previous) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < kStopSignals.size(); ++i)
    sigaction(kStopSignals[i], &sa, &previous[i]);
}

void restore_stops(const Handlers& previous) {
  for (size_t i = 0; i < kStopSignals.size(); ++i)
    sigaction(kStopSignals[i], &previous[i], nullptr);
}

std::array<char, 4096> g_lock_file{};  // LockRemovedOnStop's, for its handler

// Only async-signal-safe calls. The signal is blocked while its handler runs, so that raised again
// with its default action it ends the process once the handler returns.
void remove_lock_and_stop(int signal) {
  unlink(g_lock_file.data());
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  sigaction(signal, &sa, nullptr);
  raise(signal);
}

}  // namespace

StopSignals::StopSignals() {
  g_stop = 0;
  handle_stops(on_stop_signal, g_previous);
}

StopSignals::~StopSignals() {
  restore_stops(g_previous);
}

bool StopSignals::requested() {
  return g_stop != 0;
}

LockRemovedOnStop::LockRemovedOnStop(const ResultsLock& lock) {
  const std::string& path = lock.path();
  g_lock_file.fill('\0');
  // A longer name is left as it is rather than cut into another file's (unlink("") fails).
  if (path.size() < g_lock_file.size()) path.copy(g_lock_file.data(), path.size());
  handle_stops(remove_lock_and_stop, g_before_lock);
}

LockRemovedOnStop::~LockRemovedOnStop() {
  restore_stops(g_before_lock);
}

}  // namespace sb
