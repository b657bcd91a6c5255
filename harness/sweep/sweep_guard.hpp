// What a running sweep holds so that it collides with no other sweep and leaves nothing behind:
// the lock on its results file, a scratch directory beside it, and the signals that stop it.
#pragma once

#include <string>

namespace sb {

// Held for the sweep's life: flock(2) on RESULTS.lock, which the kernel releases however the
// sweep ends (SIGKILL included). A second sweep on the same results file is refused, whatever
// its flags, with a UsageError naming the file.
class ResultsLock {
 public:
  explicit ResultsLock(const std::string& results_path);
  ~ResultsLock();  // removes the lock file, then releases it
  ResultsLock(const ResultsLock&) = delete;
  ResultsLock& operator=(const ResultsLock&) = delete;

  const std::string& path() const { return path_; }  // the lock file's

 private:
  std::string path_;
  int fd_ = -1;
};

// While it lives, SIGINT, SIGTERM and SIGHUP remove `lock`'s file and then end the process as they
// would have: for a command that never polls for a stop (run), which would leave the file behind
// (harmless, since the next writer takes over a lock that nobody holds, but untidy). The previous
// handlers come back with the destructor.
class LockRemovedOnStop {
 public:
  explicit LockRemovedOnStop(const ResultsLock& lock);
  ~LockRemovedOnStop();
  LockRemovedOnStop(const LockRemovedOnStop&) = delete;
  LockRemovedOnStop& operator=(const LockRemovedOnStop&) = delete;
};

// Requests, results and logs of the running points: RESULTS.scratch-PID/, removed when the
// sweep ends. One that a killed sweep left is removed by the next sweep on the same results
// file: that sweep holds the lock, so whoever made it has ended. Make it under a ResultsLock.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& results_path);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// SIGINT (Ctrl-C), SIGTERM (a batch system's stop) and SIGHUP (the terminal closed) ask the sweep
// to stop between two polls; the previous handlers come back with the destructor.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  static bool requested();
};

}  // namespace sb
