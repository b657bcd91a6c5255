// Running schedbench on several ranks under mpirun, and comparing its result with a one-rank
// run's (docs/design.md §10), for the CPU and GPU tests of runs over ranks.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/process.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb::testing_support {

// mpirun, or empty where it is not installed.
inline std::string mpirun() {
  for (const char* dir : {"/usr/bin", "/usr/local/bin"}) {
    const std::string path = std::string(dir) + "/mpirun";
    if (std::filesystem::exists(path)) return path;
  }
  return "";
}

// mpirun and its options for the tests: oversubscribed on CI's two cores; as root in CI's
// container; without the kernel's cross-memory attach, which containers often forbid.
inline std::vector<std::string> mpirun_with_options() {
  return {mpirun(),
          "--oversubscribe",
          "--allow-run-as-root",
          "--bind-to",
          "none",
          "--mca",
          "btl_vader_single_copy_mechanism",
          "none"};
}

// The command line of `schedbench run ARGS` on `n` ranks (0: without a launcher), writing its
// result JSON to `json` where that is not empty.
inline std::vector<std::string> ranks_argv(int n, const std::vector<std::string>& args,
                                           const std::string& json,
                                           const std::string& exe = SCHEDBENCH_EXE) {
  std::vector<std::string> argv;
  if (n > 0) {
    argv = mpirun_with_options();
    argv.insert(argv.begin() + 1, {"-n", std::to_string(n)});
  }
  argv.push_back(exe);
  argv.push_back("run");
  argv.insert(argv.end(), args.begin(), args.end());
  if (!json.empty()) {
    argv.push_back("--json");
    argv.push_back(json);
  }
  return argv;
}

// `schedbench run ARGS` on `n` ranks to its end, its result JSON, where `json` names one, in `dir`.
inline Outcome run_on_ranks(int n, const std::vector<std::string>& args, const TempDir& dir,
                            const std::string& json) {
  return run_program(ranks_argv(n, args, json.empty() ? "" : dir.path(json)), dir.path("."));
}

// mpirun starting one rank of each of `ranks`: options of the rank (its folder: -wdir DIR) and
// its command line (an MPMD launch, where the ranks differ but for their arguments).
inline std::vector<std::string> mpmd_argv(const std::vector<std::vector<std::string>>& ranks) {
  std::vector<std::string> argv = mpirun_with_options();
  for (size_t r = 0; r < ranks.size(); ++r) {
    if (r > 0) argv.push_back(":");
    argv.push_back("-n");
    argv.push_back("1");
    argv.insert(argv.end(), ranks[r].begin(), ranks[r].end());
  }
  return argv;
}

// Runs `argv` (a launcher's command line) to its end, or for at most `seconds`: where it runs
// longer (ranks waiting for one that failed), the launcher is stopped (SIGTERM, which ends its
// ranks) and the outcome's exit code is -1, its stderr saying so first.
inline Outcome run_within(const std::vector<std::string>& argv, const TempDir& dir,
                          double seconds) {
  const std::string out = dir.path("stdout"), err = dir.path("stderr");
  const pid_t launcher = start_program(argv, out, err);
  if (launcher < 0) return {-1, "", "cannot start " + argv[0]};
  if (!eventually([&] { return has_ended(launcher); }, seconds)) {
    kill(launcher, SIGTERM);
    wait_exit_code(launcher);
    return {-1, slurp(out), "still running after " + std::to_string(seconds) + " s; " + slurp(err)};
  }
  const int code = wait_exit_code(launcher);
  return {code, slurp(out), slurp(err)};
}

// air with its space charge, small enough for a test on several ranks: `init_n` electrons from a
// ball of 20 um at 400 Td, 3 phases of 3 ps on a 16^3 mesh, then `more` options.
inline std::vector<std::string> air_space_charge_args(const std::string& init_n,
                                                      const std::vector<std::string>& more) {
  std::vector<std::string> args = {"--sim",
                                   "air",
                                   "--init-n",
                                   init_n,
                                   "--reduced-field",
                                   "400",
                                   "--phases",
                                   "3",
                                   "--phase-time",
                                   "3e-12",
                                   "--max-energy",
                                   "1000",
                                   "--extrapolate",
                                   "constant",
                                   "--init-radius",
                                   "2e-5",
                                   "--space-charge",
                                   "--grid",
                                   "16"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// A copy of schedbench in DIR/bin beside the libraries of its build in DIR/lib but `left_out`
// (libsb_mpi.so, libsb_nccl.so): a machine where MPI or NCCL is missing. Returns its path.
inline std::string schedbench_without(const TempDir& dir, const std::string& left_out) {
  namespace fs = std::filesystem;
  const fs::path exe(SCHEDBENCH_EXE);
  fs::create_directories(dir.path("bin"));
  fs::create_directories(dir.path("lib"));
  fs::copy_file(exe, dir.path("bin/schedbench"));
  for (const auto& entry : fs::directory_iterator(exe.parent_path().parent_path() / "lib")) {
    if (entry.path().filename() != left_out)
      fs::copy(entry.path(), dir.path("lib") + "/" + entry.path().filename().string());
  }
  return dir.path("bin/schedbench");
}

inline nlohmann::json result_of(const TempDir& dir, const std::string& json) {
  return nlohmann::json::parse(slurp(dir.path(json)))["result"];
}

// A run over ranks gives the one-rank run's digest, counts, observables and summary (where the sim
// summarizes its run: ccp's profiles); its slots are a rank's own (the most any one rank used,
// which --capacity bounds on each), at most the particles a phase held. Not at most the one-rank
// run's slots: where particles die, an engine whose threads take the slots of the dead as they
// come (cpu-openmp, the GPU schedulers) uses a number of slots that varies from run to run (1019
// against 1018 in one run of ccp's replicas on one rank under mpirun).
inline void expect_same_run(const nlohmann::json& got, const nlohmann::json& want,
                            const std::string& what) {
  EXPECT_EQ(got["digest"], want["digest"]) << what;
  nlohmann::json counts = got["counts"], want_counts = want["counts"];
  EXPECT_LE(counts["slots_used"], want_counts["peak"]) << what;
  counts.erase("slots_used");
  want_counts.erase("slots_used");
  EXPECT_EQ(counts, want_counts) << what;
  EXPECT_EQ(got["observables"], want["observables"]) << what;
  EXPECT_EQ(got.contains("summary"), want.contains("summary")) << what;
  if (got.contains("summary") && want.contains("summary")) {
    EXPECT_EQ(got.at("summary"), want.at("summary")) << what;
  }
}

}  // namespace sb::testing_support
