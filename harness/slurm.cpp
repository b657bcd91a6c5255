#include "harness/slurm.hpp"

#include <fmt/format.h>

namespace sb {
namespace {

// Single-quoted for the shell.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char ch : s)
    out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string sbatch_options(const SlurmRequest& r, const std::string& name) {
  // Logs as Slurm names them by default, in the directory the jobs run in.
  std::string o = fmt::format("--parsable --job-name={} --chdir={} --output=slurm-%x-%A_%a.out",
                              quoted(name), quoted(r.workdir));
  if (!r.partition.empty()) o += " --partition=" + quoted(r.partition);
  if (!r.account.empty()) o += " --account=" + quoted(r.account);
  return o;
}

}  // namespace

std::string slurm_script(const SlurmRequest& r) {
  std::string gpus;
  for (int g = 0; g < r.gpus_per_shard; ++g)
    gpus += (g == 0 ? "" : ",") + std::to_string(g);
  const std::string sweep =
      fmt::format("{} sweep {} --out {} --shard \"$SLURM_ARRAY_TASK_ID/{}\" --resume --gpus {}",
                  quoted(r.schedbench), quoted(r.job_path), quoted(r.results_path), r.shards, gpus);
  const std::string merge =
      fmt::format("{} merge {}", quoted(r.schedbench), quoted(r.results_path));
  return fmt::format(
      "#!/usr/bin/env bash\n"
      "# Written by `schedbench submit --slurm {job}`. Run it with bash on a login node: it "
      "submits\n"
      "# the sweep as a job array of {n} shards ({g} GPU each, {time} each) and a job that merges\n"
      "# the shards into {results} after all of them have ended, whatever their outcome.\n"
      "# A shard that is requeued or resubmitted resumes: it skips the points it has finished.\n"
      "set -euo pipefail\n"
      "shards=$(sbatch {array_opts} --array=1-{n} --gres=gpu:{g} --time={time} "
      "<<'SCHEDBENCH_SHARD'\n"
      "#!/usr/bin/env bash\n"
      "exec {sweep}\n"
      "SCHEDBENCH_SHARD\n"
      ")\n"
      "merge=$(sbatch {merge_opts} --dependency=afterany:\"${{shards%%;*}}\" --time=00:10:00 "
      "<<'SCHEDBENCH_MERGE'\n"
      "#!/usr/bin/env bash\n"
      "exec {merge}\n"
      "SCHEDBENCH_MERGE\n"
      ")\n"
      "echo \"submitted: shards as job array ${{shards%%;*}}, merge as job ${{merge%%;*}}\"\n",
      fmt::arg("job", r.job_path), fmt::arg("n", r.shards), fmt::arg("g", r.gpus_per_shard),
      fmt::arg("time", r.time_limit), fmt::arg("results", r.results_path),
      fmt::arg("array_opts", sbatch_options(r, "schedbench-shard")),
      fmt::arg("merge_opts", sbatch_options(r, "schedbench-merge")), fmt::arg("sweep", sweep),
      fmt::arg("merge", merge));
}

}  // namespace sb
