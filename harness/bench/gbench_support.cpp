#include "harness/bench/gbench_support.hpp"

#include <algorithm>
#include <map>

namespace sb {
namespace {

// Keeps what Google Benchmark reports: each repetition's time and the aggregates.
class Collector : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) {
        error = run.error_message;
      } else if (run.run_type == Run::RT_Iteration) {
        times_ms.push_back(run.GetAdjustedRealTime());
        last_counters = run.counters;
      } else {
        aggregates[run.aggregate_name] = run;
      }
    }
  }

  std::vector<double> times_ms;
  std::map<std::string, Run> aggregates;
  benchmark::UserCounters last_counters;
  std::string error;
};

double minimum(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}
double maximum(const std::vector<double>& v) {
  return *std::max_element(v.begin(), v.end());
}

// An aggregate's time, or the single repetition's where there is only one (Google Benchmark
// computes aggregates from two repetitions on).
double stat(const Collector& c, const std::string& name, double single) {
  const auto it = c.aggregates.find(name);
  return it == c.aggregates.end() ? single : it->second.GetAdjustedRealTime();
}

void initialise_once() {
  static const bool done = [] {
    int argc = 1;
    char name[] = "schedbench";
    char* argv[] = {name, nullptr};
    benchmark::Initialize(&argc, argv);
    return true;
  }();
  (void)done;
}

}  // namespace

TimedRepetitions time_repetitions(int repetitions,
                                  const std::function<void(benchmark::State&)>& once) {
  initialise_once();
  benchmark::RegisterBenchmark("repetitions",
                               [&once](benchmark::State& state) {
                                 for (auto _ : state)
                                   once(state);
                               })
      ->UseManualTime()
      ->Iterations(1)
      ->Repetitions(repetitions)
      ->ComputeStatistics("min", minimum)
      ->ComputeStatistics("max", maximum)
      ->Unit(benchmark::kMillisecond);
  Collector c;
  benchmark::RunSpecifiedBenchmarks(&c);
  benchmark::ClearRegisteredBenchmarks();
  TimedRepetitions out;
  out.times_ms = c.times_ms;
  out.error = c.error;
  if (c.times_ms.empty() || !c.error.empty()) return out;
  const bool one = c.times_ms.size() == 1;
  const double t = c.times_ms.front();
  // cv has the percentage unit: Google Benchmark keeps the fraction itself as its "time".
  const auto cv = c.aggregates.find("cv");
  out.stats = {{"median_ms", stat(c, "median", t)},
               {"mean_ms", stat(c, "mean", t)},
               {"stddev_ms", one ? 0.0 : stat(c, "stddev", 0.0)},
               {"cv", cv == c.aggregates.end() ? 0.0 : cv->second.real_accumulated_time},
               {"min_ms", stat(c, "min", t)},
               {"max_ms", stat(c, "max", t)}};
  for (const auto& [name, counter] : one ? c.last_counters : c.aggregates.at("median").counters)
    out.counters[name] = counter.value;
  return out;
}

void set_run_counters(benchmark::State& state, const RunResult& r) {
  const auto steps = static_cast<double>(r.counts.particle_steps);
  state.counters["final"] = static_cast<double>(r.counts.final);
  state.counters["spawned"] = static_cast<double>(r.counts.spawned);
  state.counters["removed"] = static_cast<double>(r.counts.removed);
  state.counters["particle_steps"] = steps;
  state.counters["particle_steps_per_s"] = steps / (r.time_ms * 1e-3);
  state.counters["ns_per_particle_step"] = r.time_ms * 1e6 / steps;
  for (const auto& [part, ms] : r.parts_ms)
    state.counters[part + "_ms"] = ms;
  state.counters["device_bytes"] = static_cast<double>(r.device_bytes);
  state.counters["reduce_ms"] = r.reduce_ms;
}

}  // namespace sb
