// What a long sweep tells its user while it runs: on a terminal a bar with the ETA under a line
// per finished point; otherwise (a log, a batch job) the lines alone, each with the ETA.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace sb {

class Progress {
 public:
  // `total` points, `done` of them finished before (resumed), `slots` running at once,
  // `estimate_s` the job's estimate for all its points (0: none).
  Progress(size_t total, size_t done, size_t slots, double estimate_s, bool terminal);

  void started(const std::string& label);
  // `outcome`: "ok  12.3 ms" or "FAILED (timeout): ...".
  void finished(const std::string& label, const std::string& outcome);
  // Clears the bar before other output.
  void clear();

 private:
  std::string eta() const;
  void draw();

  size_t total_, done_, done_here_ = 0, slots_;
  double estimate_s_;
  bool terminal_;
  std::string running_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// "1h02m", "3m05s", "42s".
std::string format_duration(double seconds);

}  // namespace sb
