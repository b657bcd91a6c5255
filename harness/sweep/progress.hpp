// What a long sweep tells its user while it runs: on a terminal a bar with the ETA and the running
// point's elapsed time and repetition (redrawn every second, cut to the terminal's width) under a
// line per finished point; otherwise (a log, a batch job) the lines alone, each with the ETA, and
// a heartbeat line while points run, so that a quiet log still shows the sweep is alive. The ETA
// weighs points by their expected cost (a sweep gives each its particle-steps), so that a log
// axis of work does not read as points of equal time.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sb {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr double kHeartbeatS = 30;  // at most this long without a line in a log

  // `total` points, `done` of them finished before (resumed), `slots` running at once,
  // `estimate_s` an estimate for the points to run that fits the device they run on (0: none,
  // and the ETA waits for the first measured point), `cost_to_run` their summed cost (0: one
  // each). Lines go to `out`.
  Progress(size_t total, size_t done, size_t slots, double estimate_s, bool terminal,
           std::FILE* out = stdout, double cost_to_run = 0);

  // A point of expected `cost` (in the unit of cost_to_run) started.
  void started(const std::string& label, double cost = 1);
  // What a running point is doing ("repetition 4"), shown beside its elapsed time.
  void doing(const std::string& label, const std::string& what);
  // The costs in another unit (a point's expected seconds, once one is measured): `done` of the
  // points finished by this process, `left` of those not finished (running included), and each
  // running point's by its label.
  void recost(double done, double left, const std::map<std::string, double>& running);
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

  struct Running {
    std::string label;
    Clock::time_point since;
    double cost;
    std::string doing;
  };
  std::string shown(const Running& r, Clock::time_point now) const;

  size_t total_, done_, done_here_ = 0, slots_;
  double estimate_s_;
  bool terminal_;
  std::FILE* out_;
  double cost_left_, cost_to_run_, cost_done_here_ = 0;
  std::vector<Running> running_;  // in the order started
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_line_ = start_;
  Clock::time_point last_draw_ = start_;
};

// "1h02m", "3m05s", "42s".
std::string format_duration(double seconds);

}  // namespace sb
