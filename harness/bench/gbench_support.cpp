#include "harness/bench/gbench_support.hpp"

#include <fmt/format.h>

#include <string>

#include "core/device.hpp"
#include "harness/io/environment.hpp"
#include "harness/io/output_path.hpp"

namespace sb {

void add_benchmark_context() {
  const nlohmann::json env = environment_json();
  benchmark::AddCustomContext("git_commit", env["build"]["git_commit"].get<std::string>());
  benchmark::AddCustomContext("cuda_toolkit", env["build"]["cuda_toolkit"].get<std::string>());
  const nlohmann::json& d = env["device"];
  if (d.is_null()) return;
  benchmark::AddCustomContext("gpu", d["name"].get<std::string>());
  benchmark::AddCustomContext("sm_count", std::to_string(d["sm_count"].get<int>()));
  benchmark::AddCustomContext("sm_clock_peak_mhz",
                              std::to_string(d["sm_clock_peak_mhz"].get<int>()));
  benchmark::AddCustomContext("cuda_driver_api", std::to_string(d["cuda_driver_api"].get<int>()));
  if (!d["nvidia_smi"].is_null()) {
    for (const auto& [key, value] : d["nvidia_smi"].items()) {
      benchmark::AddCustomContext(key, value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
}

std::optional<int> start_benchmarks(const char* program, int& argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (!cuda_device_present()) {
    fmt::print("{}: no CUDA device; nothing to measure\n", program);
    return 0;
  }
  add_benchmark_context();
  return std::nullopt;
}

void check_benchmark_out(int argc, char** argv) {
  const std::string flag = "--benchmark_out=";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(flag, 0) == 0) check_output_file("--benchmark_out", arg.substr(flag.size()));
  }
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
}

void MeanCollector::ReportRuns(const std::vector<Run>& runs) {
  ConsoleReporter::ReportRuns(runs);
  for (const Run& run : runs) {
    if (!run.error_occurred && run.run_type == Run::RT_Iteration) {
      ms[run.run_name.function_name] = run.GetAdjustedRealTime();
    }
  }
}

}  // namespace sb
