#include "harness/sweep/slurm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "core/errors.hpp"
#include "core/printable.hpp"

namespace sb {
namespace {

// Single-quoted for the shell.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char ch : s)
    out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// Options every job of the script shares. Logs go to the directory the jobs run in, named
// slurm-<Slurm job name>-<job id>.out, or -<array id>_<shard>.out for a shard.
std::string sbatch_options(const SlurmRequest& r, const std::string& name, bool array) {
  std::string o = fmt::format("--parsable --job-name={} --chdir={} --output={}", quoted(name),
                              quoted(r.workdir), array ? "slurm-%x-%A_%a.out" : "slurm-%x-%j.out");
  if (!r.partition.empty()) o += " --partition=" + quoted(r.partition);
  if (!r.account.empty()) o += " --account=" + quoted(r.account);
  return o;
}

// What one shard asks for: cores only for a CPU-only job (a GPU request would be refused where
// the cluster has none), GPUs and cores otherwise.
// A job of ranks asks for nodes and tasks (ranks) on each, cores per rank and a GPU per rank.
std::string resources(const SlurmRequest& r) {
  if (r.ranks_per_node > 0) {
    std::string o = fmt::format("--nodes={} --ntasks-per-node={} --cpus-per-task={}", r.nodes,
                                r.ranks_per_node, r.cpus_per_shard);
    return r.cpu_only ? o : o + fmt::format(" --gpus-per-node={}", r.ranks_per_node);
  }
  if (r.cpu_only) return fmt::format("--cpus-per-task={}", r.cpus_per_shard);
  return fmt::format("--gres=gpu:{} --cpus-per-task={}", r.gpus_per_shard, r.cpus_per_shard);
}

std::string resources_in_words(const SlurmRequest& r) {
  const auto plural = [](int n, const char* what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
  };
  if (r.ranks_per_node > 0) {
    return fmt::format("{} of {} ({} each{})", plural(r.nodes, "node"),
                       plural(r.ranks_per_node, "rank"), plural(r.cpus_per_shard, "core"),
                       r.cpu_only ? ", no GPU" : " and a GPU");
  }
  return r.cpu_only ? plural(r.cpus_per_shard, "CPU core") + ", no GPU"
                    : plural(r.gpus_per_shard, "GPU") + ", " + plural(r.cpus_per_shard, "core");
}

// The batch script of a shard (`shard` is the --shard argument; empty: the whole sweep).
std::string sweep_batch_script(const SlurmRequest& r, const std::string& shard) {
  std::string sweep = fmt::format("{} sweep {} --out {}", quoted(r.schedbench), quoted(r.job_path),
                                  quoted(r.results_path));
  if (!shard.empty()) sweep += " --shard " + shard;
  if (!r.max_points.empty()) sweep += " --max-points " + r.max_points;
  sweep += " --resume";
  std::string setup;
  if (r.ranks_per_node > 0) {
    // A point of several ranks runs alone on the allocation, its ranks started by the launcher,
    // each taking a GPU of its node; a point of one runs in the batch step.
    sweep += " --launcher " + quoted(r.launcher);
    if (r.cpu_only) setup = fmt::format("export OMP_NUM_THREADS={}\n", r.cpus_per_shard);
  } else if (r.cpu_only) {
    // cpu-openmp points use the cores Slurm gave the shard, not every core of the node.
    setup = fmt::format("export OMP_NUM_THREADS={}\n", r.cpus_per_shard);
  } else {
    // Slurm numbers a job's GPUs from 0 (CUDA_VISIBLE_DEVICES); one point runs on each at once.
    sweep += " --gpus 0";
    for (int g = 1; g < r.gpus_per_shard; ++g)
      sweep += fmt::format(",{}", g);
  }
  return "#!/usr/bin/env bash\n" + setup + "exec " + sweep + "\n";
}

// Submits the script's last job (`options` and its batch script `body`) and reports it: with
// --wait, sbatch waits for the job to end and exits with its exit code, which the script
// reports and exits with.
std::string last_job(const std::string& what, const std::string& name, const std::string& options,
                     const std::string& body, const std::string& submitted,
                     const std::string& done) {
  return fmt::format(
      "[ ${{#wait[@]}} -eq 0 ] || echo \"waiting for the {what} job to end\"\n"
      "status=0\n"
      "last=$(sbatch {options} \"${{wait[@]}}\" <<'SCHEDBENCH_BATCH'\n"
      "{body}"
      "SCHEDBENCH_BATCH\n"
      ") || status=$?\n"
      "last=${{last%%;*}}\n"
      "[ -n \"$last\" ] || exit \"$status\"  # sbatch refused the job and said why\n"
      "log=\"$logs/slurm-\"{name}\"-$last.out\"\n"
      "if [ ${{#wait[@]}} -eq 0 ]; then\n"
      "  echo \"submitted: {submitted} as job $last; its log: $log\"\n"
      "elif [ \"$status\" -eq 0 ]; then\n"
      "  echo \"{what} job $last: done: {done}; results in $results; its log: $log\"\n"
      "else\n"
      "  echo \"{what} job $last: failed (exit $status); the end of its log, $log:\" >&2\n"
      "  tail -n 20 \"$log\" >&2 || true\n"
      "fi\n"
      "exit \"$status\"\n",
      fmt::arg("what", what), fmt::arg("options", options), fmt::arg("body", body),
      fmt::arg("name", quoted(name)), fmt::arg("submitted", submitted), fmt::arg("done", done));
}

// Every text that goes into the script is quoted for the shell where it is a word; a control
// character (a newline ends a comment line or a here-document; a NUL ends the text) is refused
// in all of them, so that no name can add a line to the script.
void check_script_text(const SlurmRequest& r) {
  const std::pair<const char*, const std::string*> texts[] = {
      {"the job's name", &r.name},          {"the job file", &r.job_path},
      {"--out", &r.results_path},           {"--time", &r.time_limit},
      {"--partition", &r.partition},        {"--account", &r.account},
      {"schedbench's path", &r.schedbench}, {"the working directory", &r.workdir},
      {"--max-points", &r.max_points},      {"--launcher", &r.launcher}};
  for (const auto& [what, text] : texts) {
    const bool control = std::any_of(text->begin(), text->end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
    if (control) {
      throw UsageError(fmt::format(
          "{}: '{}' holds a control character (a newline would add a line to the script); "
          "accepted: names without them",
          what, printable(*text)));
    }
  }
}

}  // namespace

std::string slurm_script(const SlurmRequest& r) {
  check_script_text(r);
  const std::string time = " --time=" + quoted(r.time_limit);
  std::string text = fmt::format(
      "#!/usr/bin/env bash\n"
      "# Written by `schedbench submit --slurm {job}`. Run it with bash on a login node:\n"
      "#   bash SCRIPT          submits, prints the job ids and where their logs go\n"
      "#   bash SCRIPT --wait   also waits for the {last} job and exits with its exit code\n",
      fmt::arg("job", r.job_path), fmt::arg("last", r.shards == 1 ? "sweep" : "merge"));
  if (r.shards == 1) {
    text +=
        fmt::format("# It submits the sweep as one job ({res}; {time}) that writes\n# {results}.\n",
                    fmt::arg("res", resources_in_words(r)), fmt::arg("time", r.time_limit),
                    fmt::arg("results", r.results_path));
  } else {
    text += fmt::format(
        "# It submits the sweep as a job array of {n} shards ({res}; {time} each) and a job that\n"
        "# merges the shards into {results}\n"
        "# after all of them have ended: the merge fails, naming each shard that did not finish.\n",
        fmt::arg("n", r.shards), fmt::arg("res", resources_in_words(r)),
        fmt::arg("time", r.time_limit), fmt::arg("results", r.results_path));
  }
  text +=
      "# A job that is requeued or resubmitted resumes: it skips the points it has finished.\n"
      "set -euo pipefail\n"
      "case \"${1:-}\" in\n"
      "  \"\") wait=() ;;\n"
      "  --wait) wait=(--wait) ;;\n"
      "  *) echo \"usage: bash $0 [--wait]\" >&2; exit 2 ;;\n"
      "esac\n";
  // The shell's copies of the paths the messages name.
  text += fmt::format("results={}\nlogs={}\n", quoted(r.results_path), quoted(r.workdir));
  if (r.shards == 1) {
    return text + last_job("sweep", r.name,
                           sbatch_options(r, r.name, false) + " " + resources(r) + time,
                           sweep_batch_script(r, ""), "the sweep into $results", "every point ran");
  }
  text += fmt::format(
      "shards=$(sbatch {options} --array=1-{n} {res}{time} <<'SCHEDBENCH_BATCH'\n"
      "{body}"
      "SCHEDBENCH_BATCH\n"
      ")\n"
      "shards=${{shards%%;*}}\n"
      "echo \"submitted: {n} shards as job array $shards; their logs: "
      "$logs/slurm-\"{name}\"-${{shards}}_<shard>.out\"\n",
      fmt::arg("options", sbatch_options(r, r.name, true)), fmt::arg("n", r.shards),
      fmt::arg("res", resources(r)), fmt::arg("time", time),
      fmt::arg("body", sweep_batch_script(r, fmt::format("\"$SLURM_ARRAY_TASK_ID/{}\"", r.shards))),
      fmt::arg("name", quoted(r.name)));
  const std::string merge_name = r.name + "-merge";
  return text + last_job("merge", merge_name,
                         sbatch_options(r, merge_name, false) +
                             " --dependency=afterany:\"$shards\" --time=00:10:00",
                         fmt::format("#!/usr/bin/env bash\nexec {} merge {}\n",
                                     quoted(r.schedbench), quoted(r.results_path)),
                         "the merge into $results (after the shards)", "every shard finished");
}

}  // namespace sb
