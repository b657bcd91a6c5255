// One point of a job run in its own process (schedbench-point or a --runner), so that a crash,
// a GPU fault or a hang ends that point only: started with its request in a scratch directory,
// polled, and turned into its record of the results file (results/README.md) once it ends.
// `schedbench sweep` and `schedbench recommend` run their points through it.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/job/job.hpp"
#include "harness/sweep/child_process.hpp"
#include "harness/sweep/sweep_guard.hpp"

namespace sb {

struct RunningPoint {
  size_t index = 0;  // into job.points
  std::string gpu;
  std::string request, result, log;
  std::chrono::steady_clock::time_point started;
  double timeout_s = 0;
  std::unique_ptr<ChildProcess> child;
};

// The command that runs one point (REQUEST RESULT appended): `command` split at spaces, whose
// first word must be an executable file, or where empty schedbench-point beside this program.
// Throws UsageError.
std::vector<std::string> point_runner(const std::string& command);

// The MPI launcher that starts a point of several ranks (RunConfig::ranks) before its runner:
// `command` split at spaces, with "{ranks}" in one of its words; the default,
// kDefaultLauncher, is OpenMPI's mpirun. Throws UsageError.
inline constexpr const char* kDefaultLauncher = "mpirun -n {ranks}";
std::vector<std::string> point_launcher(const std::string& command);

// Where some point of `job` takes several ranks: UsageError unless the launcher's program can be
// found (a path, or a name on PATH), before anything runs.
void check_launcher(const Job& job, const std::vector<std::string>& launcher);

// Whether `c` runs on the host (a CPU scheduler).
bool runs_on_cpu(const RunConfig& c);

// Long enough for every run of the point to reach its own watchdog, and a minute to start.
double default_point_timeout(const Job& job, const JobPoint& p);

// Starts point `index` of `job` (its repetitions and warm-up) with `runner` + REQUEST RESULT,
// behind `launcher` where it takes several ranks, on CUDA devices `gpu` ("0" or "0,1"; "": the
// default), killed after `timeout_s` by whoever polls it.
RunningPoint start_point(const Job& job, size_t index, const std::string& gpu,
                         const std::vector<std::string>& runner,
                         const std::vector<std::string>& launcher, double timeout_s,
                         const ScratchDir& scratch);

// The record of a point that ended (`status` empty: killed at its deadline).
nlohmann::ordered_json point_record(const Job& job, const RunningPoint& r,
                                    const std::optional<ExitStatus>& status);

// A record in a few words: "ok  12.300 ms (median of 3)", "FAILED (crash): ...".
std::string point_outcome(const nlohmann::ordered_json& rec);

// Whether the point is past its deadline.
bool late(const RunningPoint& r);

// The expected cost of point `p`, for the ETA: the particle-steps of its runs (warm-up and the
// least repetitions) if no particle split or died.
double point_cost(const Job& job, const JobPoint& p);

// What a running point is doing by its output so far: "warm-up 1", "repetition 4", or "".
std::string point_doing(const RunningPoint& r);

}  // namespace sb
