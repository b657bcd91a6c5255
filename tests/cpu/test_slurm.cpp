// `schedbench submit --slurm` and `schedbench merge`: what the script asks Slurm for (cores for a
// CPU-only job, GPUs otherwise; an array of shards and a merge, or one job for one shard), the
// script run against a fake sbatch (tests/support/slurm/sbatch), and a merge that refuses
// shards that did not finish. `make test-slurm` runs the script on a real one-node cluster.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

using testing_support::Outcome;
using testing_support::read_json;
using testing_support::schedbench;
using testing_support::seed_job;
using testing_support::slurp;
using testing_support::TempDir;
using testing_support::with_fake_runner;
namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The script `submit --slurm` writes for `job` with `flags`, run in `dir` as a user would, so
// that the jobs run (and log) there; fails the test if submit fails.
std::string script_for(const TempDir& dir, const std::string& job,
                       const std::vector<std::string>& flags) {
  std::vector<std::string> args = {"bash",
                                   "-c",
                                   "cd \"$0\" && exec \"$@\"",
                                   dir.path(""),
                                   SCHEDBENCH_EXE,
                                   "submit",
                                   job,
                                   "--slurm",
                                   "--out",
                                   dir.path("r/seeds.json"),
                                   "--script",
                                   dir.path("job.slurm.sh")};
  args.insert(args.end(), flags.begin(), flags.end());
  const Outcome o = testing_support::run_program(args, dir.path(""));
  EXPECT_EQ(o.exit_code, 0) << o.out << o.err;
  return slurp(dir.path("job.slurm.sh"));
}

std::string gpu_job(const TempDir& dir) {
  return dir.write("gpu.json", R"({"name": "gpu", "sims": ["mvp"], "schedulers": ["dynamic-warp"],
    "axes": {"init_n": 200, "steps": 50, "seed": [1, 2, 3]}})");
}

// `bash SCRIPT ARGS` with the fake sbatch first on PATH and `env` added.
Outcome run_script(const TempDir& dir, const std::string& script,
                   const std::vector<std::string>& args, std::vector<std::string> env = {}) {
  env.push_back("PATH=" + std::string(SCHEDBENCH_SOURCE_DIR) +
                "/tests/support/slurm:" + getenv("PATH"));
  std::vector<std::string> argv = {"bash", script};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing_support::run_program(argv, dir.path(""), env);
}

TEST(Slurm, ACpuOnlyJobAsksForCoresAndNoGpu) {
  TempDir dir;
  const std::string text = script_for(dir, seed_job(dir, "[1, 2, 3]"), {"--shards", "3"});
  EXPECT_TRUE(has(text, "--array=1-3 --cpus-per-task=1 ")) << text;
  EXPECT_FALSE(has(text, "--gres")) << text;
  EXPECT_FALSE(has(text, "--gpus")) << text;
  EXPECT_TRUE(has(text, "export OMP_NUM_THREADS=1\n")) << text;
  EXPECT_TRUE(has(text, "--shard \"$SLURM_ARRAY_TASK_ID/3\" --resume\n")) << text;
  EXPECT_TRUE(has(text, "(1 CPU core, no GPU; 01:00:00 each)")) << text;

  const std::string four = script_for(dir, seed_job(dir, "[1, 2]"), {"--cpus-per-shard", "4"});
  EXPECT_TRUE(has(four, "--cpus-per-task=4 ")) << four;
  EXPECT_TRUE(has(four, "export OMP_NUM_THREADS=4\n")) << four;
}

TEST(Slurm, ARaisedPointCapReachesEveryShard) {
  TempDir dir;
  const std::string text =
      script_for(dir, seed_job(dir, "[1, 2, 3]"), {"--shards", "2", "--max-points", "200000"});
  EXPECT_TRUE(has(text, "--shard \"$SLURM_ARRAY_TASK_ID/2\" --max-points 200000 --resume\n"))
      << text;
  const std::string plain = script_for(dir, seed_job(dir, "[1, 2]"), {"--shards", "2"});
  EXPECT_FALSE(has(plain, "--max-points")) << plain;
}

TEST(Slurm, AGpuJobAsksForItsGpusAndRunsAPointOnEach) {
  TempDir dir;
  const std::string text =
      script_for(dir, gpu_job(dir), {"--shards", "2", "--gpus-per-shard", "2"});
  EXPECT_TRUE(has(text, "--array=1-2 --gres=gpu:2 --cpus-per-task=2 ")) << text;
  EXPECT_TRUE(has(text, "--resume --gpus 0,1\n")) << text;
  EXPECT_FALSE(has(text, "OMP_NUM_THREADS")) << text;
  EXPECT_TRUE(has(script_for(dir, gpu_job(dir), {}), "--gres=gpu:1 --cpus-per-task=1 "));
}

// Points of several ranks: the shard asks for nodes and tasks (one GPU per rank), and its sweep
// launches those points with the launcher.
TEST(Slurm, AJobOfRanksAsksForNodesAndTasksAndLaunchesItsPoints) {
  TempDir dir;
  const std::string job = dir.write("ranks.json", R"({"name": "ranks", "sims": ["mvp"],
    "schedulers": ["dynamic-warp"], "axes": {"init_n": 2000, "steps": 50, "ranks": [1, 4]}})");
  const std::string text = script_for(dir, job, {"--nodes", "2"});
  EXPECT_TRUE(has(text, "--nodes=2 --ntasks-per-node=2 --cpus-per-task=1 --gpus-per-node=2"))
      << text;
  EXPECT_TRUE(has(text, "--resume --launcher 'srun -n {ranks}'\n")) << text;
  EXPECT_FALSE(has(text, "--gres")) << text;
  EXPECT_FALSE(has(text, "--gpus 0")) << text;
  const std::string cpu = dir.write("cpu.json", R"({"name": "cpu", "sims": ["mvp"],
    "schedulers": ["cpu-serial"], "axes": {"init_n": 2000, "steps": 50, "ranks": 3}})");
  const std::string on_one = script_for(dir, cpu, {"--launcher", "srun --mpi=pmix -n {ranks}"});
  EXPECT_TRUE(has(on_one, "--nodes=1 --ntasks-per-node=3 --cpus-per-task=1 ")) << on_one;
  EXPECT_FALSE(has(on_one, "--gpus-per-node")) << on_one;
  EXPECT_TRUE(has(on_one, "--launcher 'srun --mpi=pmix -n {ranks}'")) << on_one;

  const Outcome few = schedbench(dir, {"submit", job, "--slurm", "--nodes", "1", "--ranks-per-node",
                                       "2", "--script", dir.path("s.sh")});
  EXPECT_EQ(few.exit_code, 2);
  EXPECT_EQ(few.err,
            "schedbench: error: --ranks-per-node: 2 on 1 node(s) is 2 ranks, but point "
            "mvp__dynamic-warp__ranks-4 takes 4; accepted: at least 4 ranks per node\n");
  const Outcome uncounted = schedbench(
      dir, {"submit", job, "--slurm", "--launcher", "srun", "--script", dir.path("s.sh")});
  EXPECT_EQ(uncounted.exit_code, 2);
  EXPECT_NE(uncounted.err.find("--launcher: 'srun' does not say where the rank count goes"),
            std::string::npos)
      << uncounted.err;
  EXPECT_FALSE(fs::exists(dir.path("s.sh")));
}

// Names that a shell would read as commands run nothing: every value is quoted where it is a
// word, and one holding a control character (a newline would end a comment line) is refused.
TEST(Slurm, HostileNamesRunNothing) {
  TempDir dir;
  const std::string hostile = "a'b\"c$(touch pwned1)`touch pwned2`;touch pwned3;\\";
  const std::string out = dir.path("r/" + hostile + ".json");
  script_for(dir, seed_job(dir, "[1]"),
             {"--out", out, "--partition", "p$(touch pwned4)", "--account", "`touch pwned5`"});
  const Outcome ran = run_script(dir, dir.path("job.slurm.sh"), {"--wait"});
  EXPECT_EQ(ran.exit_code, 0) << ran.out << ran.err;
  EXPECT_TRUE(fs::exists(out)) << ran.out << ran.err;
  for (int k = 1; k <= 5; ++k)
    EXPECT_FALSE(fs::exists(dir.path("pwned" + std::to_string(k)))) << k;

  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--out", dir.path("r/x\ntouch pwned6\n.json")},
        std::vector<std::string>{"--partition", "p\ntouch pwned6"},
        std::vector<std::string>{"--launcher", "srun -n {ranks}\ntouch pwned6"}}) {
    std::vector<std::string> args = {"submit", seed_job(dir, "[1]"), "--slurm", "--script",
                                     dir.path("n.sh")};
    args.insert(args.end(), flags.begin(), flags.end());
    const Outcome o = schedbench(dir, args);
    EXPECT_EQ(o.exit_code, 2) << flags[0] << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find("holds a control character"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(dir.path("n.sh"))) << flags[0];
  }
}

TEST(Slurm, AGpuRequestForACpuOnlyJobIsRefused) {
  TempDir dir;
  const Outcome o = schedbench(dir, {"submit", seed_job(dir, "[1]"), "--slurm", "--gpus-per-shard",
                                     "1", "--script", dir.path("s.sh")});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "schedbench: error: --gpus-per-shard: " + dir.path("job.json") +
                       " runs CPU schedulers only, so its shards ask for no GPU; accepted for "
                       "it: --cpus-per-shard\n");
  EXPECT_FALSE(fs::exists(dir.path("s.sh")));
}

TEST(Slurm, ShardsAreAJobArrayAndTheMergeAJobWithoutArrayNames) {
  TempDir dir;
  const std::string text = script_for(dir, seed_job(dir, "[1, 2, 3]"), {"--shards", "3"});
  EXPECT_TRUE(has(text, "--job-name='seeds' --chdir=")) << text;
  EXPECT_TRUE(has(text, "--output=slurm-%x-%A_%a.out --array=1-3")) << text;
  EXPECT_TRUE(has(text, "--job-name='seeds-merge'")) << text;
  EXPECT_TRUE(has(text, "--output=slurm-%x-%j.out --dependency=afterany:\"$shards\"")) << text;
  EXPECT_TRUE(has(text, "merge '" + dir.path("r/seeds.json") + "'\n")) << text;
}

TEST(Slurm, OneShardIsOneJobThatWritesTheResultsWithoutAMerge) {
  TempDir dir;
  const std::string text = script_for(dir, seed_job(dir, "[1, 2]"), {});
  EXPECT_FALSE(has(text, "--array")) << text;
  EXPECT_FALSE(has(text, "%a")) << text;
  EXPECT_FALSE(has(text, "--shard")) << text;
  EXPECT_FALSE(has(text, "merge")) << text;
  EXPECT_TRUE(has(text, "--output=slurm-%x-%j.out --cpus-per-task=1 ")) << text;

  const Outcome o = run_script(dir, dir.path("job.slurm.sh"), {});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_EQ(o.out, "submitted: the sweep into " + dir.path("r/seeds.json") +
                       " as job 4242; its log: " + dir.path("slurm-seeds-4242.out") + "\n");
  EXPECT_EQ(read_json(dir.path("r/seeds.json"))["points"].size(), 2u);
  EXPECT_TRUE(has(slurp(dir.path("slurm-seeds-4242.out")), "2 points, 0 failed"));
}

TEST(Slurm, TheScriptRunsTheShardsAndThenTheMergeAndWaitsForIt) {
  TempDir dir;
  script_for(dir, seed_job(dir, "[1, 2, 3]", 1), {"--shards", "3"});
  const Outcome o = run_script(dir, dir.path("job.slurm.sh"), {"--wait"});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_EQ(o.out, "submitted: 3 shards as job array 4242; their logs: " +
                       dir.path("slurm-seeds-4242_<shard>.out") +
                       "\nwaiting for the merge job to end\n"
                       "merge job 4242: done: every shard finished; results in " +
                       dir.path("r/seeds.json") +
                       "; its log: " + dir.path("slurm-seeds-merge-4242.out") + "\n");
  const nlohmann::json merged = read_json(dir.path("r/seeds.json"));
  ASSERT_EQ(merged["points"].size(), 3u);
  EXPECT_EQ(merged["shard"]["merged_from"].size(), 3u);
  EXPECT_EQ(merged["shard"]["planned_points"], 3);
  EXPECT_TRUE(fs::exists(dir.path("slurm-seeds-4242_3.out")));
}

TEST(Slurm, ACancelledShardFailsTheMergeAndTheScriptSaysWhere) {
  TempDir dir;
  script_for(dir, seed_job(dir, "[1, 2, 3]", 1), {"--shards", "3"});
  const Outcome o = run_script(dir, dir.path("job.slurm.sh"), {"--wait"}, {"FAKE_SBATCH_CANCEL=2"});
  EXPECT_EQ(o.exit_code, 3) << o.out << o.err;
  const std::string log = dir.path("slurm-seeds-merge-4242.out");
  EXPECT_TRUE(has(o.err, "merge job 4242: failed (exit 3); the end of its log, " + log + ":\n"))
      << o.err;
  EXPECT_TRUE(has(o.err, "schedbench: merge: shard 2 of 3: no file")) << o.err;
  EXPECT_FALSE(fs::exists(dir.path("seeds.json")));

  // Without --wait the script says where the merge's outcome will be.
  const Outcome later = run_script(dir, dir.path("job.slurm.sh"), {}, {"FAKE_SBATCH_CANCEL=2"});
  EXPECT_EQ(later.exit_code, 0) << later.out << later.err;
  EXPECT_TRUE(has(later.out, "submitted: the merge into " + dir.path("r/seeds.json") +
                                 " (after the shards) as job 4242; its log: " + log + "\n"))
      << later.out;
}

TEST(Merge, RefusesAShardThatWasStoppedAndOneThatNeverRan) {
  TempDir dir;
  // Shard 1 of 3 runs seeds 1 and 3, shard 2 seed 14 (which hangs), shard 3 seed 2.
  const std::string job = seed_job(dir, "[1, 14, 2, 3]", 1), out = dir.path("seeds.json");
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", out, "--shard", "1/3"}).exit_code, 0);
  const std::string second = dir.path("seeds.shard-2-of-3.json");
  const pid_t pid =
      testing_support::start_program({SCHEDBENCH_EXE, "sweep", job, "--out", out, "--shard", "2/3",
                                      "--runner", with_fake_runner()},
                                     dir.path("o2"), dir.path("e2"));
  ASSERT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline && !fs::exists(second))
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the hanging point has started
  kill(pid, SIGTERM);                                           // as Slurm ends a cancelled job
  EXPECT_EQ(testing_support::wait_exit_code(pid), 130);

  const Outcome o = schedbench(dir, {"merge", out});
  EXPECT_EQ(o.exit_code, 3);
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err, "schedbench: merge: shard 2 of 3: 0 of 1 points in " + second +
                       "; it was stopped before its end (`schedbench sweep " + job + " --out " +
                       out +
                       " --shard 2/3 --resume` runs the rest)\n"
                       "schedbench: merge: shard 3 of 3: no file " +
                       dir.path("seeds.shard-3-of-3.json") + "; it never ran (`schedbench sweep " +
                       job + " --out " + out +
                       " --shard 3/3 --resume` runs it)\n"
                       "schedbench: merge: " +
                       out + " not written\n");
  EXPECT_FALSE(fs::exists(out));
}

TEST(Merge, AShardNumberOutOfRangeIsBadInput) {
  TempDir dir;
  dir.write("seeds.shard-1-of-99999999999.json", "{}");
  const Outcome o = schedbench(dir, {"merge", dir.path("seeds.json")});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_TRUE(has(o.err, "'99999999999' is not a shard number; accepted: 1 to 100000")) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_FALSE(fs::exists(dir.path("seeds.json")));
}

// merge checks what it merges: a shard within the plan, each point of a shard its own and
// listed once, every point's fields of their types; else exit 2 naming the file and the point.
TEST(Merge, RefusesAForeignShardAPointTwiceAndIllTypedFields) {
  TempDir dir;
  const std::string job = seed_job(dir, "[1, 2, 3, 4]", 1), out = dir.path("seeds.json");
  for (const char* shard : {"1/2", "2/2"})
    ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", out, "--shard", shard}).exit_code, 0);
  const std::string first = dir.path("seeds.shard-1-of-2.json");
  // Ordered as written: merge compares the shards' job specs.
  const nlohmann::ordered_json good = nlohmann::ordered_json::parse(slurp(first));
  const auto merged_with = [&](const nlohmann::ordered_json& shard) {
    dir.write("seeds.shard-1-of-2.json", shard.dump());
    const Outcome o = schedbench(dir, {"merge", out});
    EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_FALSE(fs::exists(out));
    return o.err;
  };
  nlohmann::ordered_json twice = good;
  twice["points"].push_back(good["points"][0]);
  EXPECT_TRUE(has(merged_with(twice), first + ": points[2] (")) << "twice";
  EXPECT_TRUE(has(merged_with(twice), ") is listed twice")) << "twice";
  nlohmann::ordered_json foreign = good;
  foreign["points"][0]["index"] = 1;
  EXPECT_TRUE(has(merged_with(foreign), "belongs to shard 2 of 2, not 1")) << "foreign";
  nlohmann::ordered_json typed = good;
  typed["points"][1]["stats"]["median_ms"] = "fast";
  EXPECT_TRUE(has(merged_with(typed), first + ": points[1].stats.median_ms: \"fast\"")) << "typed";
  nlohmann::ordered_json status = good;
  status["points"][0]["status"] = true;
  EXPECT_TRUE(has(merged_with(status), "points[0].status: true; accepted: \"ok\" or \"failed\""));

  dir.write("seeds.shard-1-of-2.json", good.dump());
  dir.write("seeds.shard-3-of-2.json", good.dump());
  const Outcome beyond = schedbench(dir, {"merge", out});
  EXPECT_EQ(beyond.exit_code, 2) << beyond.err;
  EXPECT_TRUE(has(beyond.err,
                  "seeds.shard-3-of-2.json: shard 3 of 2 sweeps; accepted: shards 1 "
                  "to 2"))
      << beyond.err;
  fs::remove(dir.path("seeds.shard-3-of-2.json"));
  EXPECT_EQ(schedbench(dir, {"merge", out}).exit_code, 0);
}

}  // namespace
}  // namespace sb
