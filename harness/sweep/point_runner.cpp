// schedbench-point: runs ONE point of a sweep in its own process, so that a crash, a GPU fault
// or a hang takes down only this point (`schedbench sweep` starts one per point and watches
// it). Google Benchmark is the runner and statistics layer: after the warm-up runs it times
// the repetitions with device events (manual time) and computes median, mean, stddev, cv, min
// and max of the times and the counters.
//
//   schedbench-point REQUEST.json RESULT.json
//
// REQUEST: {"config": {...}, "repetitions": R, "warmup": W} (the config as results record it).
// RESULT (written atomically): the measured part of a point record (results/README.md,
// schedbench.job/1), or {"failure": "run-error", "error": "..."}.
// Exit codes: 0 measured, 2 bad request, 3 the run failed, 1 anything else.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "harness/bench/gbench_support.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/json_file.hpp"
#include "harness/job/parameters.hpp"
#include "harness/job/run_report.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

// What the benchmark function saw: the first repetition's result, against which every later
// one is checked (the counts and digest of a run do not depend on timing: docs/design.md §3).
struct Observed {
  RunResult first;
  int repetitions = 0;
};

void measure(benchmark::State& state, const RunConfig& c, Observed* seen) {
  for (auto _ : state) {
    RunResult r;
    try {
      r = run(c);
    } catch (const RunError& e) {
      state.SkipWithError(e.what());
      break;
    }
    if (seen->repetitions++ == 0) {
      seen->first = r;
    } else if (r.digest != seen->first.digest || r.counts.final != seen->first.counts.final) {
      state.SkipWithError(fmt::format("repetition {} gave digest {} but the first gave {}",
                                      seen->repetitions, digest_hex(r.digest),
                                      digest_hex(seen->first.digest))
                              .c_str());
      break;
    }
    state.SetIterationTime(r.time_ms * 1e-3);
    set_run_counters(state, r);
    fmt::print("repetition {}: {:.3f} ms\n", seen->repetitions, r.time_ms);
  }
}

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

Json measured(const Collector& c, const Observed& seen, int warmup) {
  const bool one = c.times_ms.size() == 1;
  const double t = c.times_ms.front();
  // cv has the percentage unit: Google Benchmark keeps the fraction itself as its "time".
  const auto cv = c.aggregates.find("cv");
  Json stats = {{"median_ms", stat(c, "median", t)},
                {"mean_ms", stat(c, "mean", t)},
                {"stddev_ms", one ? 0.0 : stat(c, "stddev", 0.0)},
                {"cv", cv == c.aggregates.end() ? 0.0 : cv->second.real_accumulated_time},
                {"min_ms", stat(c, "min", t)},
                {"max_ms", stat(c, "max", t)}};
  const auto median = c.aggregates.find("median");
  const benchmark::UserCounters& counters = one ? c.last_counters : median->second.counters;
  Json parts = Json::object();
  for (const auto& [part, ms] : seen.first.parts_ms)
    parts[part] = counters.at(part + "_ms").value;
  const Json result = result_json(seen.first);
  return {{"warmup", warmup},
          {"repetitions_ms", c.times_ms},
          {"stats", stats},
          {"counts", result["counts"]},
          {"counters",
           {{"particle_steps_per_s", counters.at("particle_steps_per_s").value},
            {"ns_per_particle_step", counters.at("ns_per_particle_step").value}}},
          {"parts_ms", parts},
          {"digest", result["digest"]},
          {"device_bytes", seen.first.device_bytes}};
}

int point_main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr,
               "usage: schedbench-point REQUEST.json RESULT.json (run by schedbench sweep)\n");
    return 2;
  }
  const std::string result_path = argv[2];
  const auto fail = [&](const std::string& why) {
    fmt::print(stderr, "schedbench-point: run failed: {}\n", why);
    write_file_atomically(result_path,
                          Json{{"failure", "run-error"}, {"error", why}}.dump(2) + "\n");
    return 3;
  };
  RunConfig config;
  int repetitions = 0, warmup = 0;
  try {
    const Json request = read_json_file(argv[1], "request");
    config = config_from_json(request.at("config"), argv[1]);
    repetitions = request.at("repetitions").get<int>();
    warmup = request.at("warmup").get<int>();
  } catch (const std::exception& e) {
    fmt::print(stderr, "schedbench-point: error: {}\n", e.what());
    return 2;
  }
  try {
    for (int i = 0; i < warmup; ++i) {
      const RunResult r = run(config);
      fmt::print("warm-up {}: {:.3f} ms\n", i + 1, r.time_ms);
    }
  } catch (const RunError& e) {
    return fail(e.what());
  }
  int gb_argc = 1;
  benchmark::Initialize(&gb_argc, argv);
  add_benchmark_context();
  Observed seen;
  benchmark::RegisterBenchmark("point", measure, config, &seen)
      ->UseManualTime()
      ->Iterations(1)
      ->Repetitions(repetitions)
      ->ComputeStatistics("min", minimum)
      ->ComputeStatistics("max", maximum)
      ->Unit(benchmark::kMillisecond);
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::Shutdown();
  if (!collector.error.empty()) return fail(collector.error);
  write_file_atomically(result_path, measured(collector, seen, warmup).dump(2) + "\n");
  return 0;
}

}  // namespace
}  // namespace sb

int main(int argc, char** argv) {
  try {
    return sb::point_main(argc, argv);
  } catch (const sb::WriteError& e) {
    fmt::print(stderr, "schedbench-point: {}\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "schedbench-point: internal error: {}\n", e.what());
    return 1;
  }
}
