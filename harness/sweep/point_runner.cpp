// schedbench-point: runs ONE point of a sweep in its own process, so that a crash, a GPU fault
// or a hang takes down only this point (`schedbench sweep` starts one per point and watches
// it). After the warm-up runs it times the repetitions (device events, or the clock of a CPU
// engine), and Google Benchmark computes median, mean, stddev, cv, min and max of the times and
// the counters (harness/bench/gbench_support.hpp).
//
//   schedbench-point REQUEST.json RESULT.json
//
// REQUEST: {"config": {...}, "repetitions": R, "warmup": W} (the config as results record it).
// RESULT (written atomically): the measured part of a point record (results/README.md,
// schedbench.job/1), or {"failure": "run-error", "error": "..."}.
// Exit codes: 0 measured, 2 bad request, 3 the run failed, 1 anything else.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "harness/bench/gbench_support.hpp"
#include "harness/io/atomic_file.hpp"
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
  bool peer_failed = false;  // another rank's run failed, and it reports the error
};

// One repetition: a run of `c`, its time and counters.
void measure(benchmark::State& state, const RunSpec& spec, Observed& seen) {
  RunResult r;
  try {
    r = run(spec);
  } catch (const ranks::PeerFailure& e) {
    seen.peer_failed = true;
    state.SkipWithError(e.what());
    return;
  } catch (const RunError& e) {
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
  state.SetIterationTime(r.time_ms * 1e-3);
  set_run_counters(state, r);
  fmt::print("repetition {}: {:.3f} ms\n", seen.repetitions, r.time_ms);
}

Json measured(const TimedRepetitions& t, const Observed& seen, int warmup) {
  Json parts = Json::object();
  for (const auto& [part, ms] : seen.first.parts_ms)
    parts[part] = t.counters.at(part + "_ms");
  const Json result = result_json(seen.first);
  return {{"warmup", warmup},
          {"repetitions_ms", t.times_ms},
          {"stats", t.stats},
          {"counts", result["counts"]},
          {"counters",
           {{"particle_steps_per_s", t.counters.at("particle_steps_per_s")},
            {"ns_per_particle_step", t.counters.at("ns_per_particle_step")}}},
          {"parts_ms", parts},
          {"digest", result["digest"]},
          {"device_bytes", seen.first.device_bytes},
          // Over several ranks: what moved between them and what was reduced (the counts of every
          // repetition, the reductions' time its median), and the worst imbalance.
          {"ranks", seen.first.ranks},
          {"moved_bytes", seen.first.moved_bytes},
          {"reduced_bytes", seen.first.reduced_bytes},
          {"reduce_ms", t.counters.at("reduce_ms")},
          {"imbalance", result["imbalance"]}};
}

int point_main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr,
               "usage: schedbench-point REQUEST.json RESULT.json (run by schedbench sweep)\n");
    return 2;
  }
  const std::string result_path = argv[2];
  // On several ranks (an MPI launch) rank 0 writes the result, or the rank whose run failed
  // writes the failure (the others' runs failed with it).
  const bool first_rank = ranks::world().rank() == 0;
  const auto fail = [&](const std::string& why, bool peer_failed) {
    if (peer_failed) return 3;
    fmt::print(stderr, "schedbench-point: run failed: {}\n", why);
    write_file_atomically(result_path,
                          Json{{"failure", "run-error"}, {"error", why}}.dump(2) + "\n");
    return 3;
  };
  RunSpec spec;  // resolved once: every repetition runs the same setup
  int repetitions = 0, warmup = 0;
  try {
    const Json request = read_json_file(argv[1], "request");
    spec = resolve(config_from_json(request.at("config"), argv[1]));
    repetitions = request.at("repetitions").get<int>();
    warmup = request.at("warmup").get<int>();
  } catch (const std::exception& e) {
    fmt::print(stderr, "schedbench-point: error: {}\n", e.what());
    return 2;
  }
  try {
    for (int i = 0; i < warmup; ++i) {
      const RunResult r = run(spec);
      fmt::print("warm-up {}: {:.3f} ms\n", i + 1, r.time_ms);
    }
  } catch (const ranks::PeerFailure& e) {
    return fail(e.what(), true);
  } catch (const RunError& e) {
    return fail(e.what(), false);
  }
  Observed seen;
  const TimedRepetitions t =
      time_repetitions(repetitions, [&](benchmark::State& state) { measure(state, spec, seen); });
  if (!t.error.empty()) return fail(t.error, seen.peer_failed);
  if (first_rank) write_file_atomically(result_path, measured(t, seen, warmup).dump(2) + "\n");
  return 0;
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
