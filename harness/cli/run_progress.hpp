// What a long run tells its user while it runs: a line at most every few seconds (--progress) of
// how many of its phases have run, its particles, its time so far and an estimate of the time
// left, so that a run of minutes (ccp's 10^5-10^7 steps) is seen to be alive and how far it is.
// The lines go to stderr, apart from the run's report on stdout.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace sb {

class RunProgress {
 public:
  using Clock = std::chrono::steady_clock;

  // A run of `phases` phases, a line at most every `every_s` seconds from `start`, to `out`.
  RunProgress(uint32_t phases, double every_s, Clock::time_point start = Clock::now(),
              std::FILE* out = stderr);

  // `done` phases have run and `alive` particles are left, at `now`: a line where `every_s` have
  // passed since the last (or since the start).
  void at(uint32_t done, uint64_t alive, Clock::time_point now = Clock::now());

 private:
  uint32_t phases_;
  double every_s_;
  Clock::time_point start_, last_;
  std::FILE* out_;
};

}  // namespace sb
