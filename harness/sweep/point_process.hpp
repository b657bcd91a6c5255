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
  int visit = 0;     // which of the point's visits (sweep --interleave), from 0
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

// A command that starts point processes (sweep, recommend) is refused where an MPI launcher
// started it: every point would inherit the launcher's environment and take itself for one of its
// ranks. Throws UsageError naming `command`.
void refuse_launched(const std::string& command);

// Where some point of `job` takes several ranks: UsageError unless the launcher's program can be
// found (a path, or a name on PATH), before anything runs.
void check_launcher(const Job& job, const std::vector<std::string>& launcher);

// Whether `c` runs on the host (a CPU scheduler).
bool runs_on_cpu(const RunConfig& c);

// Long enough for every run of the point to reach its own watchdog, and a minute to start.
double default_point_timeout(const Job& job, const JobPoint& p);

// Writes the request the point runner reads (harness/sweep/point_runner.cpp) to `path`: the
// label, `config` and the sampling, atomically.
void write_point_request(const std::string& path, const std::string& label, const RunConfig& config,
                         const Sampling& sampling);

// Where a point runs and how it is visited: on CUDA devices `gpu` ("0" or "0,1"; "": the
// default), with `runner` + REQUEST RESULT behind `launcher` where it takes several ranks, killed
// after `timeout_s` by whoever polls it; visit `visit` of `visits` (sweep --interleave), which
// takes its share of the job's sampling (visit_share, harness/bench/sampling.hpp).
struct PointLaunch {
  std::string gpu;
  std::vector<std::string> runner, launcher;
  double timeout_s = 0;
  int visit = 0, visits = 1;
};

// Starts point `index` of `job` (its warm-up and repetitions) as `how` says.
RunningPoint start_point(const Job& job, size_t index, const PointLaunch& how,
                         const ScratchDir& scratch);

// The record of a point that ended (`status` empty: killed at its deadline).
nlohmann::ordered_json point_record(const Job& job, const RunningPoint& r,
                                    const std::optional<ExitStatus>& status);

// One record of the ok records of a point's visits, in the order they ran: every repetition's
// time and clock, the statistics and rates of them all, each part's median over the visits, their
// energy summed where every visit has it, clocks locked only where every visit locked them, and
// whether it is noisy by `s`. A visit whose digest differs from the first's makes it a failed
// record (the runs of one configuration are deterministic: docs/determinism.md). A visit that
// lacks a key of a point's record (check_point_record) throws nlohmann's out_of_range.
nlohmann::ordered_json merge_visits(const Sampling& s,
                                    const std::vector<nlohmann::ordered_json>& visits);

// A record in a few words: "ok  12.300 ms (median of 3)", "FAILED (crash): ...".
std::string point_outcome(const nlohmann::ordered_json& rec);

// Whether the point is past its deadline.
bool late(const RunningPoint& r);

// The job's estimate (estimated_s) for `points`, a share of it by their count. The estimate is
// for GPU schedulers on one H100: points that all run on the CPU (a job's fallback where there is
// no GPU) have none (0), and an ETA comes from their own measurement.
double h100_estimate(const Job& job, const std::vector<size_t>& points);

// The particle-steps of one run of `p` if no particle split or died.
double run_work(const JobPoint& p);

// The expected cost of point `p`, for the ETA before a point is measured: the particle-steps of
// its runs (warm-up and the least repetitions).
double point_cost(const Job& job, const JobPoint& p);

// What a measured point tells of the wall time of the others, for the ETA once one has finished
// (docs/performance.md, "How a point is measured"): a run's time in proportion to its work,
// what a point costs besides its runs (the process's start, each run's setup, the timing layer),
// and how long its timed runs took.
struct PointTimeModel {
  double run_s_per_work = 0;  // a run's seconds per particle-step
  double fixed_s = 0;         // the point's wall time besides its runs
  double timed_s = 0;         // the timed runs' seconds
};

// The model by the ok record `rec` (wall_s, warmup, repetitions_ms, stats.median_ms) of a point
// whose run does `work` particle-steps.
PointTimeModel point_time_model(const nlohmann::ordered_json& rec, double work);

// The wall time the model expects of a point whose run does `work` particle-steps, measured by
// `s`: its fixed part, its warm-up runs, then its timed runs: a fixed count where `s` sets one,
// else as long as the measured point's, held between the least the rule takes (min_samples,
// min_time_s) and where it stops (max_time_s, or that least where it is longer).
double expected_s(const PointTimeModel& m, const Sampling& s, double work);

// What a running point is doing by its output so far: "warm-up 1", "repetition 4", or "".
std::string point_doing(const RunningPoint& r);

}  // namespace sb
