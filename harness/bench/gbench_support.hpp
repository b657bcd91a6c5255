// Google Benchmark as the timing and statistics layer of every measurement: the point runner
// (harness/sweep/point_runner.cpp) times a sweep point's runs with it, bench_fields the field
// module's kernels. Each caller times one repetition its own way (device events, a clock) and
// hands the time over; Google Benchmark computes the statistics every results file records
// (results/README.md, schedbench.job/1).
#pragma once

#include <benchmark/benchmark.h>

#include <functional>

#include "core/run_result.hpp"
#include "harness/bench/repetitions.hpp"
#include "harness/job/job_form.hpp"

namespace sb {

// Calls `once` `repetitions` times, each a repetition of one iteration, in which `once` sets the
// time it measured (State::SetIterationTime, seconds) and any counters, or calls
// State::SkipWithError, which ends the measurement.
TimedRepetitions time_repetitions(int repetitions,
                                  const std::function<void(benchmark::State&)>& once);

// The steady clock's seconds.
double steady_seconds();

// Repetitions of `once` until enough_samples by `s` (harness/bench/sampling.hpp) in the wall time
// `clock_s` tells (seconds; a test passes a clock of its own): a first batch of the least it
// could take, then next_batch's, so that a noisy point's interval is recomputed without a
// process per run.
TimedRepetitions time_sampled(const Sampling& s, const std::function<void(benchmark::State&)>& once,
                              const std::function<double()>& clock_s = steady_seconds);

// Counts, rates, device memory and the time's parts of `r` as the state's counters.
void set_run_counters(benchmark::State& state, const RunResult& r);

}  // namespace sb
