// The stopping rule of a point's measurement (Sampling, harness/job/job_form.hpp): how many
// timed runs are enough, and the measurement that takes them through Google Benchmark.
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <vector>

#include "harness/bench/repetitions.hpp"
#include "harness/job/job_form.hpp"

namespace sb {

// Whether `times_ms` (every repetition so far) is enough by `s`: `repetitions` of them where
// that is set; otherwise at least min_samples and min_time_s, and then either the median's
// interval within max_noise_pct of it or max_time_s measured.
bool enough_samples(const Sampling& s, const std::vector<double>& times_ms);

// Whether the measurement is noisy by `s`: its noise (statistics.hpp) above max_noise_pct.
bool noisy(const Sampling& s, const std::vector<double>& times_ms);

// Repetitions of `once` (as time_repetitions runs them, harness/bench/gbench_support.hpp) until
// enough_samples: a first batch of the least it could take, then batches of half as many
// again as there are, so that a noisy point's interval is recomputed without a process per run.
TimedRepetitions time_sampled(const Sampling& s,
                              const std::function<void(benchmark::State&)>& once);

}  // namespace sb
