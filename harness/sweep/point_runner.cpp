// schedbench-point: runs ONE point of a sweep in its own process, so that a crash, a GPU fault
// or a hang takes down only this point (`schedbench sweep` starts one per point and watches
// it). After the warm-up runs it times repetitions (device events, or the clock of a CPU engine)
// through Google Benchmark until the sampling's stopping rule is met (harness/bench/sampling.hpp),
// reading the GPU's clocks and throttle reasons around each through NVML.
//
//   schedbench-point REQUEST.json RESULT.json
//   schedbench-point --serve      (points one after another: serve() below)
//
// REQUEST: {"config": {...}, "sampling": {...}} (the config as results record it; the sampling
// as a job file's keys, harness/job/job_form.hpp).
// RESULT (written atomically): the measured part of a point record (results/README.md,
// schedbench.job/1), or {"failure": "run-error", "error": "..."} where the request is bad or the
// run failed.
// Exit codes: 0 measured, 2 bad request (or ranks other than the run takes), 3 the run failed, 1
// anything else.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <iostream>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "harness/bench/gbench_support.hpp"
#include "harness/bench/sampling.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/gpu_clocks.hpp"
#include "harness/io/json_file.hpp"
#include "harness/job/parameters.hpp"
#include "harness/job/run_report.hpp"
#include "ranks/communicator.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

// What the benchmark function saw: the first repetition's result, against which every later
// one is checked (the counts and digest of a run do not depend on timing: docs/design.md §3).
struct Observed {
  RunResult first;
  int repetitions = 0;
  bool peer_failed = false;         // another rank's run failed, and it reports the error
  std::optional<GpuClocks> clocks;  // GPU schedulers where NVML answers
  std::vector<unsigned> sm_mhz;     // each repetition's SM clock at its end
  std::vector<int> throttled;       // repetitions (from 0) slowed by power or heat
  uint64_t reasons = 0;             // every slowdown reason seen
};

// The clocks around one repetition: its SM clock at the end, and whether either sample saw a
// slowdown.
void note_clocks(Observed& seen, const ClockSample& before) {
  if (!seen.clocks) return;
  const ClockSample after = seen.clocks->sample();
  const uint64_t slow = before.reasons | after.reasons;
  seen.sm_mhz.push_back(after.sm_mhz);
  if (!slowdown_reasons(slow).empty()) {
    seen.throttled.push_back(static_cast<int>(seen.sm_mhz.size()) - 1);
    seen.reasons |= slow;
  }
}

// One repetition: a run of `spec`, its time and counters.
void measure(benchmark::State& state, const RunSpec& spec, const RunOptions& options,
             Observed& seen) {
  RunResult r;
  const ClockSample before = seen.clocks ? seen.clocks->sample() : ClockSample{};
  try {
    r = run(spec, options);
  } catch (const ranks::PeerFailure& e) {
    seen.peer_failed = true;
    state.SkipWithError(e.what());
    return;
  } catch (const RunError& e) {
    state.SkipWithError(e.what());
    return;
  } catch (const UsageError& e) {  // a run's own check (check_ranks): without warm-up, here
    state.SkipWithError(e.what());
    return;
  }
  if (seen.repetitions++ == 0) {
    seen.first = r;
  } else if (r.digest != seen.first.digest || r.counts.final != seen.first.counts.final) {
    state.SkipWithError(fmt::format("repetition {} gave digest {} but the first gave {}",
                                    seen.repetitions, digest_hex(r.digest),
                                    digest_hex(seen.first.digest))
                            .c_str());
    return;
  }
  note_clocks(seen, before);
  state.SetIterationTime(r.time_ms * 1e-3);
  set_run_counters(state, r);
  fmt::print("repetition {}: {:.3f} ms\n", seen.repetitions, r.time_ms);
}

// What NVML saw: each repetition's SM clock, those slowed by power or heat and why.
Json clocks_json(const Observed& seen) {
  Json out = {{"sm_mhz", seen.sm_mhz}, {"throttled", seen.throttled}};
  if (seen.reasons != 0) out["reasons"] = slowdown_reasons(seen.reasons);
  return out;
}

Json measured(const RunConfig& c, const TimedRepetitions& t, const Observed& seen,
              const Sampling& sampling) {
  const std::map<std::string, double> counters = t.counters();
  Json parts = Json::object();
  for (const auto& [part, ms] : seen.first.parts_ms)
    parts[part] = counters.at(part + "_ms");
  const Json result = result_json(c, seen.first);
  Json out = {{"warmup", sampling.warmup},
              {"repetitions_ms", t.times_ms},
              {"stats", t.stats()},
              {"counts", result["counts"]},
              {"counters",
               {{"particle_steps_per_s", counters.at("particle_steps_per_s")},
                {"ns_per_particle_step", counters.at("ns_per_particle_step")}}},
              {"parts_ms", parts},
              {"digest", result["digest"]},
              {"device_bytes", seen.first.device_bytes},
              // Over several ranks: what moved between them and what was reduced (the counts of
              // every repetition, the reductions' time its median), and the worst imbalance.
              {"ranks", seen.first.ranks},
              {"moved_bytes", seen.first.moved_bytes},
              {"reduced_bytes", seen.first.reduced_bytes},
              {"reduce_ms", counters.at("reduce_ms")},
              {"imbalance", result["imbalance"]}};
  if (seen.clocks) out["gpu_clocks"] = clocks_json(seen);
  // A streamed run's batches and copies, as its first repetition saw them.
  if (result.contains("streaming")) out["streaming"] = result["streaming"];
  // Noisy: its interval wider than the sampling asks, or a repetition slowed by the GPU's
  // power or heat; tables show it as such, never as a plain ok.
  if (noisy(sampling, t.times_ms) || !seen.throttled.empty()) out["noisy"] = true;
  return out;
}

// Measures the point `request_path` asks for into `result_path`; the exit code.
int measure_point(const std::string& request_path, const std::string& result_path) {
  // On several ranks (an MPI launch) rank 0 writes the result, or the rank whose run failed
  // writes the failure (the others' runs failed with it).
  const bool first_rank = ranks::world().rank() == 0;
  // A failure's cause goes into the result, so that the point's record names it (not only its
  // exit code): the run's error, or why the request or the ranks the launcher started are not
  // what the run takes (code 2).
  const auto fail = [&](const std::string& why, bool peer_failed, int code = 3) {
    if (peer_failed) return code;
    fmt::print(stderr, "schedbench-point: {}: {}\n", code == 2 ? "error" : "run failed", why);
    write_file_atomically(result_path,
                          Json{{"failure", "run-error"}, {"error", why}}.dump(2) + "\n");
    return code;
  };
  RunSpec spec;  // resolved once: every repetition runs the same setup
  Sampling sampling;
  try {
    const Json request = read_json_file(request_path, "request");
    if (!request.is_object() || !request.contains("config") || !request["config"].is_object() ||
        !request.contains("sampling") || !request["sampling"].is_object()) {
      throw UsageError(
          fmt::format("{}: not a request; accepted: {{\"config\": {{...}}, \"sampling\": {{...}}}}",
                      request_path));
    }
    spec = resolve(config_from_json(request["config"], request_path));
    read_sampling(request_path, request["sampling"], sampling);
  } catch (const std::exception& e) {  // a UsageError, or a value of another type
    return fail(e.what(), false, 2);
  }
  RunOptions options;  // every run of the spec shares them: a yardstick's reference is made once
  try {
    options.reference = yardstick_reference(spec);
    for (int i = 0; i < sampling.warmup; ++i) {
      const RunResult r = run(spec, options);
      fmt::print("warm-up {}: {:.3f} ms\n", i + 1, r.time_ms);
    }
  } catch (const ranks::PeerFailure& e) {
    return fail(e.what(), true);
  } catch (const RunError& e) {
    return fail(e.what(), false);
  } catch (const UsageError& e) {  // the run's own checks: fewer ranks started than it takes
    return fail(e.what(), false, 2);
  }
  Observed seen;
  if (spec.scheduler->kind != SchedulerKind::kCpu) {
    int device = 0;
    if (cudaGetDevice(&device) == cudaSuccess) seen.clocks = GpuClocks::open(device);
  }
  const TimedRepetitions t =
      time_sampled(sampling, [&](benchmark::State& state) { measure(state, spec, options, seen); });
  if (!t.error.empty()) return fail(t.error, seen.peer_failed);
  if (first_rank)
    write_file_atomically(result_path, measured(spec.config, t, seen, sampling).dump(2) + "\n");
  return 0;
}

// Points one after another in this process (recommend's candidates: one CUDA context and one
// start for them all): a line {"request": PATH, "result": PATH} on standard input per point,
// until it ends. A point that fails writes its failure and the next one runs; a crash ends them
// all, and the caller starts another. A line that is no order ends them with exit code 2.
int serve() {
  for (std::string line; std::getline(std::cin, line);) {
    Json order;
    try {
      order = parse_json_text(line, "order");
    } catch (const UsageError& e) {
      fmt::print(stderr, "schedbench-point --serve: error: {}\n", e.what());
      return 2;
    }
    const auto path = [&](const char* key) {
      return order.is_object() && order.contains(key) && order[key].is_string() &&
             !order[key].get<std::string>().empty();
    };
    if (!path("request") || !path("result")) {
      fmt::print(stderr,
                 "schedbench-point --serve: error: '{}' is not an order; accepted: "
                 "{{\"request\": PATH, \"result\": PATH}}\n",
                 printable(line));
      return 2;
    }
    const std::string result = order["result"].get<std::string>();
    measure_point(order["request"].get<std::string>(), result);
    fmt::print("served {}\n", result);
    std::fflush(stdout);
  }
  return 0;
}

int point_main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--serve") return serve();
  if (argc != 3) {
    fmt::print(stderr,
               "usage: schedbench-point REQUEST.json RESULT.json, or --serve (run by schedbench "
               "sweep and recommend)\n");
    return 2;
  }
  return measure_point(argv[1], argv[2]);
}

}  // namespace
}  // namespace sb

int main(int argc, char** argv) {
  sb::fail_writes_past_size_limit();
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
