#include "harness/bench/sampling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/errors.hpp"

#include "harness/bench/statistics.hpp"

namespace sb {
double measured_s(const std::vector<double>& times_ms) {
  return std::accumulate(times_ms.begin(), times_ms.end(), 0.0) * 1e-3;
}

bool noisy(const Sampling& s, const std::vector<double>& times_ms) {
  return 100 * timing_stats(times_ms).noise > s.max_noise_pct;
}

bool enough_samples(const Sampling& s, const std::vector<double>& times_ms) {
  const auto n = static_cast<int>(times_ms.size());
  if (s.repetitions > 0) return n >= s.repetitions;
  if (n < s.min_samples || measured_s(times_ms) < s.min_time_s) return false;
  return !noisy(s, times_ms) || measured_s(times_ms) >= s.max_time_s;
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
