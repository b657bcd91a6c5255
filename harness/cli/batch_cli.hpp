// The batch commands of schedbench: sweep (run a job file), merge (join a sharded sweep's
// files), submit (a Slurm script that runs the shards and the merge), compare (two results
// files, point by point), ab (two builds on the same points), export (a results file as a flat table) and report (a report of a
// results folder, by the Python package schedbench_results).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "harness/sweep/point_process.hpp"
#include "harness/sweep/slurm.hpp"
#include "harness/sweep/sweep.hpp"

namespace sb {

struct BatchArgs {
  CLI::App* sweep = nullptr;
  CLI::App* merge = nullptr;
  CLI::App* submit = nullptr;
  CLI::App* compare = nullptr;
  CLI::App* export_results = nullptr;
  CLI::App* report = nullptr;
  CLI::App* ab = nullptr;
  std::string report_dir;
  std::vector<std::string> report_jobs;
  std::string export_path, export_format = "csv";
  bool export_long = false;  // export --long: a row per repetition
  std::string job_path;
  std::string out_path;
  std::string shard;                        // "I/N"
  std::string gpus;                         // "0,1"
  std::string runner;                       // command line
  std::string launcher = kDefaultLauncher;  // "mpirun -n {ranks}"
  std::string point_timeout;                // seconds
  std::string max_points;                   // most points of the job; empty: kDefaultMaxPoints
  bool list = false;
  std::vector<std::string> axis_edits;  // -a KEY=VALUES
  std::vector<std::string> filters;     // --filter REGEX
  std::string summary_format = "text";  // --format of the summary
  // The sampling options (harness/job/job_form.hpp Sampling); empty: the job's.
  std::string repetitions, warmup, min_samples, min_time, max_time, max_noise;
  std::string l2, lock_clocks;  // the GPU's state for the timed runs; empty: the job's
  std::string interleave, order_seed;  // --interleave V, --order-seed S
  bool slurm = false;
  SweepOptions sweep_options;
  SlurmRequest slurm_request;
  std::string shards, gpus_per_shard, cpus_per_shard, script_path;
  std::string nodes, ranks_per_node;
  std::string compare_a, compare_b, compare_format = "text", same_within = "3", fail_if_slower;
  std::string compare_by;  // KEY=BASELINE
  std::string noise_floor, calibrate;  // compare --noise-floor FILE, --calibrate FILE
  std::string ab_a, ab_b, rounds = "10";  // ab --a BUILD --b BUILD --rounds N
  bool ab_overwrite = false;
  std::string slurm_launcher = "srun -n {ranks}";
};

void add_batch_commands(CLI::App& app, BatchArgs& a);

// Runs whichever of the batch commands was parsed; false if none was.
bool run_batch_command(BatchArgs& a, int& exit_code);

}  // namespace sb
