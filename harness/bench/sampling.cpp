#include "harness/bench/sampling.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"

#include "harness/bench/statistics.hpp"

namespace sb {
bool noisy(const Sampling& s, const std::vector<double>& times_ms) {
  return 100 * timing_stats(times_ms).noise > s.max_noise_pct;
}

bool enough_samples(const Sampling& s, const std::vector<double>& times_ms, double wall_s) {
  const auto n = static_cast<int>(times_ms.size());
  if (s.repetitions > 0) return n >= s.repetitions;
  if (n < s.min_samples || wall_s < s.min_time_s) return false;
  return !noisy(s, times_ms) || wall_s >= s.max_time_s;
}

int next_batch(const Sampling& s, int runs, double wall_s) {
  const double per_run_s = wall_s / static_cast<double>(runs);
  // Below min_time_s: as many again as it takes to reach it at this rate, at least one.
  const double short_s = s.min_time_s - wall_s;
  const int to_min_time = short_s > 0 ? static_cast<int>(short_s / per_run_s) + 1 : 0;
  const int batch = std::max({1, runs / 2, to_min_time});
  // No more than fill half the time left before max_time_s at this rate: a rate that slows within
  // the batch (a neighbour's load) by up to twice still ends it before max_time_s, and the batches
  // close in on it until one run is left to pass it.
  const double left_s = s.max_time_s - wall_s;
  if (left_s <= 0 || per_run_s <= 0) return batch;
  return std::min(batch, std::max(1, static_cast<int>(left_s / 2 / per_run_s)));
}

Sampling visit_share(const Sampling& s, int visits, int visit) {
  // Visit v of V takes the v-th share of a count, so that the shares add up to it.
  const auto share = [&](int n) {
    return std::max(1, (n * (visit + 1)) / visits - (n * visit) / visits);
  };
  Sampling out = s;
  if (s.repetitions > 0) out.repetitions = share(s.repetitions);
  out.min_samples = share(s.min_samples);
  out.min_time_s = s.min_time_s / visits;
  out.max_time_s = s.max_time_s / visits;
  return out;
}

void check_visits(const Sampling& s, int visits) {
  if (s.repetitions == 0 || visits <= s.repetitions) return;
  throw UsageError(fmt::format(
      "--interleave: {} visits cannot share {} repetition(s), each visit running at least one; "
      "accepted: --interleave at most {}, or at least {} repetitions (--repetitions, or the job's)",
      visits, s.repetitions, s.repetitions, visits));
}

}  // namespace sb
