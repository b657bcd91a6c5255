// schedbench-point: runs ONE point of a sweep in its own process, so that a crash, a GPU fault
// or a hang takes down only this point (`schedbench sweep` starts one per point and watches
// it). After the warm-up runs it times repetitions (device events, or the clock of a CPU engine)
// until the sampling's stopping rule is met (harness/bench/sampling.hpp, timing.hpp), reading the
// GPU's clocks and throttle reasons around each and its energy around them all through NVML; a
// GPU point's L2 is flushed before each where the sampling asks for it cold, and its clocks are
// locked for the point where it asks for that (docs/performance.md, "How it was measured").
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
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <iostream>

#include "core/cuda_check.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"
#include "harness/bench/sampling.hpp"
#include "harness/bench/timing.hpp"
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

// What the repetitions saw: the first repetition's result, against which every later
// one is checked (the counts and digest of a run do not depend on timing: docs/design.md §3).
struct Observed {
  RunResult first;
  int repetitions = 0;
  bool peer_failed = false;         // another rank's run failed, and it reports the error
  std::optional<GpuClocks> clocks;  // GPU schedulers where NVML answers
  std::string no_clocks;            // why clocks is empty for a GPU scheduler
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

// A device buffer larger than the L2 cache, written over before each timed run of a cold-L2
// point, as NVBench's cold measurements do: the run finds in the L2 only what its own setup
// wrote, not what the run before left (docs/performance.md, "How it was measured").
class L2Flush {
 public:
  explicit L2Flush(const DeviceDescription& d)
      : buffer_(2 * static_cast<size_t>(d.l2_bytes), "the L2 flush buffer") {}
  // Writes the buffer and waits for it, before the run's timed part starts.
  void operator()() const {
    SB_CUDA_CHECK(cudaMemset(buffer_.data(), 0, buffer_.size()));
    SB_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  DeviceBuffer<uint8_t> buffer_;
};

// One repetition: a run of `spec`, its time and counters; the L2 flushed before it where `flush`
// is given.
void measure(Repetition& rep, const RunSpec& spec, const RunOptions& options,
             const std::optional<L2Flush>& flush, Observed& seen) {
  RunResult r;
  try {
    if (flush) (*flush)();
    const ClockSample before = seen.clocks ? seen.clocks->sample() : ClockSample{};
    r = run(spec, options);
    note_clocks(seen, before);
  } catch (const ranks::PeerFailure& e) {
    seen.peer_failed = true;
    rep.error = e.what();
    return;
  } catch (const RunError& e) {
    rep.error = e.what();
    return;
  } catch (const UsageError& e) {  // a run's own check (check_ranks): without warm-up, here
    rep.error = e.what();
    return;
  }
  if (seen.repetitions++ == 0) {
    seen.first = r;
  } else if (r.digest != seen.first.digest || r.counts.final != seen.first.counts.final) {
    rep.error = fmt::format("repetition {} gave digest {} but the first gave {}", seen.repetitions,
                            digest_hex(r.digest), digest_hex(seen.first.digest));
    return;
  }
  rep.time_ms = r.time_ms;
  set_run_counters(rep, r);
  fmt::print("repetition {}: {:.3f} ms\n", seen.repetitions, r.time_ms);
}

// The GPU's energy counter and the steady clock before a point's timed runs, to be read again
// after them.
struct EnergyStart {
  std::optional<uint64_t> mj;
  double s = 0;
  std::string why;  // why mj is empty
};

EnergyStart energy_start(const Observed& seen) {
  EnergyStart e;
  if (seen.clocks) {
    e.mj = seen.clocks->energy_mj(e.why);
  } else {
    e.why = seen.no_clocks;
  }
  e.s = steady_seconds();
  return e;
}

// The energy of the timed runs from `start` to now (docs/performance.md, "How it was measured"):
// the counter's difference over the repetitions and over the wall time between the readings,
// which holds each run's untimed setup and any L2 flushes. Null, with why on stderr, where a
// reading failed.
Json energy_json(const Observed& seen, const EnergyStart& start, size_t repetitions) {
  std::string why = start.why;
  const std::optional<uint64_t> end_mj =
      start.mj && seen.clocks ? seen.clocks->energy_mj(why) : std::nullopt;
  const double seconds = steady_seconds() - start.s;
  if (!end_mj || repetitions == 0) {
    fmt::print(stderr, "schedbench-point: no energy recorded: {}\n", why);
    return nullptr;
  }
  return energy_record(static_cast<double>(*end_mj - *start.mj) * 1e-3, seconds, repetitions);
}

// What NVML saw: each repetition's SM clock, those slowed by power or heat and why.
Json clocks_json(const Observed& seen) {
  Json out = {{"sm_mhz", seen.sm_mhz}, {"throttled", seen.throttled}};
  if (seen.reasons != 0) out["reasons"] = slowdown_reasons(seen.reasons);
  return out;
}

// The GPU's clocks locked for a point where its sampling asks for that and NVML lets this
// process (docs/performance.md, "How it was measured"): where it refuses, the point runs at the
// driver's clocks, this says so in one line, and the record says why (clock_lock_refused).
struct PointClocks {
  std::optional<BaseClockLock> lock;
  std::string refused;  // why the clocks are not locked as asked; "" where they are
};

void lock_clocks(const Sampling& sampling, Observed& seen, PointClocks& out) {
  if (sampling.lock_clocks == ClockLock::kOff) return;
  if (seen.clocks) {
    out.lock.emplace(*seen.clocks);
    out.refused = out.lock->refusal();
  } else {
    out.refused = seen.no_clocks;
  }
  if (!out.refused.empty()) {
    fmt::print(stderr, "schedbench-point: clocks not locked ({}); the point runs at the driver's\n",
               out.refused);
  }
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

// What a GPU point's record says of its GPU for its runs (results/README.md): its L2, whether
// its clocks were locked where asked for, and its energy where NVML read it.
void add_gpu_state(const Sampling& sampling, const PointClocks& clocks, const Json& energy,
                   Json& out) {
  out["l2"] = l2_control().values[static_cast<size_t>(sampling.l2)];
  if (sampling.lock_clocks != ClockLock::kOff) {
    out["clocks_locked"] = clocks.refused.empty();
    if (!clocks.refused.empty()) out["clock_lock_refused"] = clocks.refused;
  }
  if (!energy.is_null()) out["energy"] = energy;
}

// NVML for the point's device, or why not.
void open_clocks(Observed& seen) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    seen.no_clocks = "no CUDA device";
    return;
  }
  seen.clocks = GpuClocks::open(device, seen.no_clocks);
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
  Observed seen;
  const bool on_gpu = spec.scheduler->kind != SchedulerKind::kCpu;
  if (on_gpu) open_clocks(seen);
  PointClocks clocks;  // locked for the warm-up runs too, which then settle at the base clock
  if (on_gpu) lock_clocks(sampling, seen, clocks);
  RunOptions options;  // every run of the spec shares them: a yardstick's reference is made once
  std::optional<L2Flush> flush;
  try {
    options.reference = yardstick_reference(spec);
    for (int i = 0; i < sampling.warmup; ++i) {
      const RunResult r = run(spec, options);
      fmt::print("warm-up {}: {:.3f} ms\n", i + 1, r.time_ms);
    }
    if (on_gpu && sampling.l2 == L2State::kCold) flush.emplace(describe_device().value());
  } catch (const ranks::PeerFailure& e) {
    return fail(e.what(), true);
  } catch (const RunError& e) {
    return fail(e.what(), false);
  } catch (const UsageError& e) {  // the run's own checks: fewer ranks started than it takes
    return fail(e.what(), false, 2);
  }
  const EnergyStart energy = energy_start(seen);
  const TimedRepetitions t =
      time_sampled(sampling, [&](Repetition& rep) { measure(rep, spec, options, flush, seen); });
  if (!t.error.empty()) return fail(t.error, seen.peer_failed);
  if (first_rank) {
    Json out = measured(spec.config, t, seen, sampling);
    if (on_gpu) add_gpu_state(sampling, clocks, energy_json(seen, energy, t.times_ms.size()), out);
    write_file_atomically(result_path, out.dump(2) + "\n");
  }
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
