#include "harness/bench/sampling.hpp"

#include <algorithm>
#include <numeric>

#include "harness/bench/gbench_support.hpp"
#include "harness/bench/statistics.hpp"

namespace sb {
namespace {

double measured_s(const std::vector<double>& times_ms) {
  return std::accumulate(times_ms.begin(), times_ms.end(), 0.0) * 1e-3;
}

}  // namespace

bool noisy(const Sampling& s, const std::vector<double>& times_ms) {
  return 100 * timing_stats(times_ms).noise > s.max_noise_pct;
}

bool enough_samples(const Sampling& s, const std::vector<double>& times_ms) {
  const auto n = static_cast<int>(times_ms.size());
  if (s.repetitions > 0) return n >= s.repetitions;
  if (n < s.min_samples || measured_s(times_ms) < s.min_time_s) return false;
  return !noisy(s, times_ms) || measured_s(times_ms) >= s.max_time_s;
}

TimedRepetitions time_sampled(const Sampling& s,
                              const std::function<void(benchmark::State&)>& once) {
  TimedRepetitions all;
  int batch = s.repetitions > 0 ? s.repetitions : s.min_samples;
  while (true) {
    TimedRepetitions more = time_repetitions(batch, once);
    all.times_ms.insert(all.times_ms.end(), more.times_ms.begin(), more.times_ms.end());
    all.counters_each.insert(all.counters_each.end(), more.counters_each.begin(),
                             more.counters_each.end());
    all.error = more.error;
    if (!all.error.empty() || all.times_ms.empty() || enough_samples(s, all.times_ms)) break;
    // Below min_time_s: as many again as it takes to reach it at this rate, at least one.
    const double per_run_s = measured_s(all.times_ms) / static_cast<double>(all.times_ms.size());
    const double short_s = s.min_time_s - measured_s(all.times_ms);
    const int to_min_time = short_s > 0 ? static_cast<int>(short_s / per_run_s) + 1 : 0;
    batch = std::max({1, static_cast<int>(all.times_ms.size()) / 2, to_min_time});
    // Never past max_time_s by more than one run.
    const double left_s = s.max_time_s - measured_s(all.times_ms);
    if (left_s > 0) batch = std::min(batch, std::max(1, static_cast<int>(left_s / per_run_s)));
  }
  return all;
}

}  // namespace sb
