#include "harness/bench/gbench_support.hpp"

#include <chrono>
#include <map>

#include "harness/bench/sampling.hpp"

namespace sb {
namespace {

// Keeps what Google Benchmark reports of each repetition: its time and its counters (the
// statistics over them are TimedRepetitions', which also give the median's interval).
class Collector : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) {
        out.error = run.error_message;
      } else if (run.run_type == Run::RT_Iteration) {
        out.times_ms.push_back(run.GetAdjustedRealTime());
        std::map<std::string, double> counters;
        for (const auto& [name, counter] : run.counters)
          counters[name] = counter.value;
        out.counters_each.push_back(std::move(counters));
      }
    }
  }

  TimedRepetitions out;
};

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
      ->Unit(benchmark::kMillisecond);
  Collector c;
  benchmark::RunSpecifiedBenchmarks(&c);
  benchmark::ClearRegisteredBenchmarks();
  return c.out;
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

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

TimedRepetitions time_sampled(const Sampling& s, const std::function<void(benchmark::State&)>& once,
                              const std::function<double()>& clock_s) {
  TimedRepetitions all;
  const double start_s = clock_s();
  int batch = s.repetitions > 0 ? s.repetitions : s.min_samples;
  while (true) {
    TimedRepetitions more = time_repetitions(batch, once);
    all.times_ms.insert(all.times_ms.end(), more.times_ms.begin(), more.times_ms.end());
    all.counters_each.insert(all.counters_each.end(), more.counters_each.begin(),
                             more.counters_each.end());
    all.error = more.error;
    const double wall_s = clock_s() - start_s;
    if (!all.error.empty() || all.times_ms.empty() || enough_samples(s, all.times_ms, wall_s))
      break;
    batch = next_batch(s, static_cast<int>(all.times_ms.size()), wall_s);
  }
  return all;
}

}  // namespace sb
