// What a long sweep tells its user while it runs: on a terminal a bar with the ETA and the running
// point's elapsed time (redrawn every second, cut to the terminal's width) under a line per
// finished point; otherwise (a log, a batch job) the lines alone, each with the ETA, and a
// heartbeat line while points run, so that a quiet log still shows the sweep is alive.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace sb {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr double kHeartbeatS = 30;  // at most this long without a line in a log

  // `total` points, `done` of them finished before (resumed), `slots` running at once,
  // `estimate_s` an estimate for all the points that fits the device they run on (0: none, and
  // the ETA waits for the first measured point). Lines go to `out`.
  Progress(size_t total, size_t done, size_t slots, double estimate_s, bool terminal,
           std::FILE* out = stdout);

  void started(const std::string& label);
  // `outcome`: "ok  12.3 ms" or "FAILED (timeout): ...".
  void finished(const std::string& label, const std::string& outcome);
  // Called while waiting for points; `now` is Clock::now() (a test passes a later time).
  void tick(Clock::time_point now);
  // Clears the bar before other output.
  void clear();

 private:
  std::string eta() const;
  void draw(Clock::time_point now);
  void line(const std::string& text);

  size_t total_, done_, done_here_ = 0, slots_;
  double estimate_s_;
  bool terminal_;
  std::FILE* out_;
  std::vector<std::pair<std::string, Clock::time_point>> running_;  // in the order started
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_line_ = start_;
  Clock::time_point last_draw_ = start_;
};

// "1h02m", "3m05s", "42s".
std::string format_duration(double seconds);

}  // namespace sb
