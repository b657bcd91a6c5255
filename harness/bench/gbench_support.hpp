// Google Benchmark glue of the point runner (harness/sweep/point_runner.cpp), which uses it as
// its runner and statistics layer: the context every result carries (docs/design.md §6) and the
// counters of one run.
#pragma once

#include <benchmark/benchmark.h>

#include "core/run_result.hpp"

namespace sb {

// The GPU, its clocks, the driver and CUDA versions and the git commit, as custom context.
void add_benchmark_context();

// Counts, rates, device memory and the time's parts of `r` as the state's counters.
void set_run_counters(benchmark::State& state, const RunResult& r);

}  // namespace sb
