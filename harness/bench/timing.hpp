// The repetition loop of every measurement: the point runner (harness/sweep/point_runner.cpp)
// times a sweep point's runs with it, bench_fields the field module's kernels. Each caller times
// one repetition its own way (device events, a clock) and hands the time over; the statistics
// over the repetitions are the project's own (harness/bench/statistics.hpp, results/README.md).
#pragma once

#include <functional>

#include "core/run_result.hpp"
#include "harness/bench/repetitions.hpp"
#include "harness/job/job_form.hpp"

namespace sb {

// Calls `once` `repetitions` times, each with a fresh Repetition, in which `once` sets the time
// it measured and any counters, or an error, which ends the measurement (the repetitions before
// it are kept).
TimedRepetitions time_repetitions(int repetitions, const std::function<void(Repetition&)>& once);

// The steady clock's seconds.
double steady_seconds();

// Repetitions of `once` until enough_samples by `s` (harness/bench/sampling.hpp) in the wall time
// `clock_s` tells (seconds; a test passes a clock of its own): a first batch of the least it
// could take, then next_batch's, so that a noisy point's interval is recomputed without a
// process per run.
TimedRepetitions time_sampled(const Sampling& s, const std::function<void(Repetition&)>& once,
                              const std::function<double()>& clock_s = steady_seconds);

// Counts, rates, device memory and the time's parts of `r` as the repetition's counters.
void set_run_counters(Repetition& rep, const RunResult& r);

}  // namespace sb
