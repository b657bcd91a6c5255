// Google Benchmark glue of the point runner (harness/sweep/point_runner.cpp), which uses it as
// its runner and statistics layer, and of bench_fields (the field module's kernels alone): the
// context every result carries (docs/design.md §6), the counters of one run, and a program's
// start.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/run_result.hpp"

namespace sb {

// The GPU, its clocks, the driver and CUDA versions and the git commit, as custom context.
void add_benchmark_context();

// Google Benchmark's own flags, then the device, for `program`: the exit code to return at once
// (2 for a flag it does not know; 0, after saying so, without a CUDA device), or nothing when the
// benchmarks are to be registered and run (the context is added by then).
std::optional<int> start_benchmarks(const char* program, int& argc, char** argv);

// Google Benchmark writes --benchmark_out=FILE itself, after every run, without the checks of
// output_path.hpp; this makes them before any run. Throws UsageError.
void check_benchmark_out(int argc, char** argv);

// Counts, rates, device memory and the time's parts of `r` as the state's counters.
void set_run_counters(benchmark::State& state, const RunResult& r);

// The console's report, and each benchmark's mean time per iteration (in its unit) by name, for
// the table a program prints last. Runs that failed are left out.
class MeanCollector : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override;
  std::map<std::string, double> ms;
};

}  // namespace sb
