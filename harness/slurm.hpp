// `schedbench submit --slurm`: a script that submits a sweep to a Slurm cluster as a job array
// of shards, one GPU set per shard, and a merge job that runs after all of them.
#pragma once

#include <string>

namespace sb {

struct SlurmRequest {
  std::string job_path;      // the job file
  std::string results_path;  // the merged results file; shards write beside it
  int shards = 1;
  int gpus_per_shard = 1;
  std::string time_limit;  // sbatch --time, per shard
  std::string partition;   // optional
  std::string account;     // optional
  std::string schedbench;  // absolute path of the schedbench binary
  std::string workdir;     // absolute path the jobs run in (relative paths resolve here)
};

// The bash script's text: running it calls sbatch twice and prints the job ids.
std::string slurm_script(const SlurmRequest& r);

}  // namespace sb
