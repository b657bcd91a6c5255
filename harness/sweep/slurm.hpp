// `schedbench submit --slurm`: a script that submits a sweep to a Slurm cluster: one job for one
// shard; otherwise a job array of shards and a merge job that runs after all of them.
#pragma once

#include <string>

namespace sb {

struct SlurmRequest {
  std::string name;          // the job's name: Slurm job names and log names start with it
  std::string job_path;      // the job file
  std::string results_path;  // the merged results file; shards write beside it
  int shards = 1;
  bool cpu_only = false;   // every point runs a CPU scheduler: ask for cores, no GPU
  int gpus_per_shard = 1;  // GPU jobs only
  int cpus_per_shard = 1;
  std::string time_limit;  // sbatch --time, per shard
  std::string partition;   // optional
  std::string account;     // optional
  std::string schedbench;  // absolute path of the schedbench binary
  std::string workdir;     // absolute path the jobs run in (relative paths resolve here)
  std::string max_points;  // submit's --max-points, passed on to every shard's sweep; empty: none
  // A job whose points take several ranks (RunConfig::ranks): each shard asks for this many
  // nodes and ranks (tasks) on each, one GPU per rank for a GPU job, and its sweep launches such
  // points with `launcher` ("srun -n {ranks}"). ranks_per_node 0: every point one rank.
  int nodes = 1;
  int ranks_per_node = 0;
  std::string launcher;
};

// The bash script's text: running it calls sbatch and prints the job ids and their logs;
// `bash SCRIPT --wait` also waits for the last job (the merge, or the one shard) and exits
// with its exit code. UsageError where a value holds a control character.
std::string slurm_script(const SlurmRequest& r);

}  // namespace sb
