// `schedbench sweep` as a batch job: one results file per job with every repetition, points
// isolated in their own processes (a crash or a hang fails that point only), an interrupted
// sweep that keeps what finished and resumes, and shards that merge into the whole (the Slurm
// script that runs them: test_slurm.cpp). CPU engines only, so that CI runs it all.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/device.hpp"
#include "harness/job/job_results.hpp"
#include "tests/support/ranks.hpp"
#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

using nlohmann::json;
using testing_support::Outcome;
using testing_support::point;
using testing_support::read_json;
using testing_support::schedbench;
using testing_support::seed_job;
using testing_support::TempDir;
using testing_support::with_fake_runner;
namespace fs = std::filesystem;

TEST(Sweep, WritesOneResultsFileWithEveryRepetitionAndTheRunsDigest) {
  TempDir dir;
  const std::string out = dir.path("seeds.json");
  const Outcome o = schedbench(dir, {"sweep", seed_job(dir, "[1, 2]", 3), "--out", out});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json r = read_json(out);
  EXPECT_EQ(r["schema"], "schedbench.job/1");
  EXPECT_EQ(r["job"]["name"], "seeds");
  EXPECT_EQ(r["job"]["spec"]["repetitions"], 3);
  EXPECT_TRUE(r["environment"]["build"].contains("git_commit"));
  ASSERT_EQ(r["points"].size(), 2u);
  const json& p = point(r, 2);
  EXPECT_EQ(p["status"], "ok");
  EXPECT_EQ(p["label"], "mvp__cpu-serial__seed-2");
  EXPECT_EQ(p["warmup"], 1);
  ASSERT_EQ(p["repetitions_ms"].size(), 3u);
  const double median = p["stats"]["median_ms"], lo = p["stats"]["min_ms"],
               hi = p["stats"]["max_ms"];
  EXPECT_LE(lo, median);
  EXPECT_LE(median, hi);
  EXPECT_GE(p["stats"]["cv"].get<double>(), 0.0);
  EXPECT_GT(p["counters"]["particle_steps_per_s"].get<double>(), 0.0);
  EXPECT_FALSE(p.contains("gpu"));
  // The summary shows each point's median and its spread as the file holds them (the interval's
  // half-width and cv in per cent).
  const size_t header = o.out.find("median ms  ±% (95%)  n  cv %");
  ASSERT_NE(header, std::string::npos) << o.out;
  const std::string row = testing_support::line_containing(
      o.out.substr(header), fmt::format(" {} ", p["counts"]["final"].get<uint64_t>()));
  EXPECT_NE(row.find(fmt::format(" {:.3f} ", median)), std::string::npos) << o.out;
  EXPECT_NE(row.find(fmt::format(" {:.1f} ", 100 * p["stats"]["cv"].get<double>())),
            std::string::npos)
      << p["stats"]["cv"] << "\n"
      << row << "\n"
      << o.out;
  // The sweep measures what `schedbench run` computes.
  const std::string single = dir.path("single.json");
  ASSERT_EQ(
      schedbench(dir, {"run", "--sim", "mvp", "--scheduler", "cpu-serial", "--init-n", "200",
                       "--steps", "50", "--split-chance", "2", "--seed", "2", "--json", single})
          .exit_code,
      0);
  const json run = read_json(single);
  EXPECT_EQ(p["digest"], run["result"]["digest"]);
  EXPECT_EQ(p["counts"], run["result"]["counts"]);
  // Beside the results, the catalog the plots take names and labels from.
  const json catalog = read_json(dir.path("catalog.json"));
  EXPECT_EQ(catalog["schema"], "schedbench.catalog/1");
}

TEST(Sweep, ACrashAndAHangFailTheirPointsOnlyAndSayWhy) {
  TempDir dir;
  const std::string out = dir.path("seeds.json");
  const Outcome o = schedbench(dir, {"sweep", seed_job(dir, "[12, 13, 14, 15]"), "--out", out,
                                     "--runner", with_fake_runner(), "--point-timeout", "3"});
  EXPECT_EQ(o.exit_code, 3) << o.out << o.err;
  const json r = read_json(out);
  ASSERT_EQ(r["points"].size(), 4u);
  EXPECT_EQ(point(r, 12)["status"], "ok");
  EXPECT_EQ(point(r, 13)["status"], "failed");
  EXPECT_EQ(point(r, 13)["failure"], "crash");
  EXPECT_NE(point(r, 13)["error"].get<std::string>().find("SIGSEGV"), std::string::npos);
  EXPECT_EQ(point(r, 14)["failure"], "timeout");
  EXPECT_NE(point(r, 14)["error"].get<std::string>().find("no result after 3 s"),
            std::string::npos);
  EXPECT_EQ(point(r, 15)["status"], "ok");
  EXPECT_NE(o.out.find("FAILED (crash)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("failed: timeout"), std::string::npos) << o.out;
}

// A sweep without a job file: the -a axes alone make the job, whose points are those of the
// job file that names the same axes (labels and digests).
TEST(Sweep, RunsTheCommandLinesAxesAsTheJobFileOfThemWould) {
  TempDir dir;
  const std::string from_file = dir.path("file.json"), from_line = dir.path("line.json");
  ASSERT_EQ(schedbench(dir, {"sweep", seed_job(dir, "[1, 2]", 1), "--out", from_file}).exit_code,
            0);
  const Outcome o = schedbench(dir, {"sweep", "-a", "sim=mvp", "-a", "scheduler=cpu-serial", "-a",
                                     "init_n=200", "-a", "steps=50", "-a", "split_chance=2", "-a",
                                     "seed=1,2", "--repetitions", "1", "--out", from_line});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json file = read_json(from_file), line = read_json(from_line);
  EXPECT_EQ(line["job"]["name"], "sweep-mvp");
  ASSERT_EQ(line["points"].size(), file["points"].size());
  for (const int seed : {1, 2}) {
    EXPECT_EQ(point(line, seed)["label"], point(file, seed)["label"]);
    EXPECT_EQ(point(line, seed)["digest"], point(file, seed)["digest"]);
  }
  // Without a sim or a scheduler there is no job: one line, exit 2.
  const Outcome none = schedbench(dir, {"sweep", "-a", "sim=mvp", "--out", dir.path("x.json")});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(std::count(none.err.begin(), none.err.end(), '\n'), 1) << none.err;
  EXPECT_NE(none.err.find("no job file and no -a sim=... and -a scheduler=..."), std::string::npos)
      << none.err;
  EXPECT_FALSE(fs::exists(dir.path("x.json")));
}

TEST(Sweep, AnInterruptedSweepKeepsWhatFinishedAndResumes) {
  TempDir dir;
  const std::string job = seed_job(dir, "[1, 2, 14, 3]"), out = dir.path("seeds.json");
  // Seed 14 hangs: the sweep is interrupted while it runs.
  const pid_t pid = testing_support::start_program(
      {SCHEDBENCH_EXE, "sweep", job, "--out", out, "--runner", with_fake_runner()}, dir.path("o1"),
      dir.path("e1"));
  ASSERT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline &&
         (!fs::exists(out) || read_json(out)["points"].size() < 2)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the hanging point has started
  kill(pid, SIGINT);
  EXPECT_EQ(testing_support::wait_exit_code(pid), 130);
  const json kept = read_json(out);
  ASSERT_EQ(kept["points"].size(), 2u);
  EXPECT_EQ(point(kept, 1)["status"], "ok");
  EXPECT_EQ(point(kept, 2)["status"], "ok");
  EXPECT_NE(testing_support::slurp(dir.path("o1")).find("--resume"), std::string::npos);

  // Without --resume or --overwrite the file is not touched.
  const Outcome refused = schedbench(dir, {"sweep", job, "--out", out});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("exists; accepted: --resume"), std::string::npos) << refused.err;

  const Outcome resumed = schedbench(dir, {"sweep", job, "--out", out, "--resume"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("2 of 4 points already finished"), std::string::npos) << resumed.out;
  const json all = read_json(out);
  ASSERT_EQ(all["points"].size(), 4u);
  EXPECT_EQ(point(all, 1)["finished_utc"], point(kept, 1)["finished_utc"]);
  EXPECT_EQ(point(all, 1)["repetitions_ms"], point(kept, 1)["repetitions_ms"]);
  EXPECT_EQ(point(all, 14)["status"], "ok");
  std::vector<int> seeds;
  for (const json& p : all["points"])
    seeds.push_back(p["config"]["seed"]);
  EXPECT_EQ(seeds, (std::vector<int>{1, 2, 14, 3}));  // job order
}

TEST(Sweep, ShardsMergeIntoTheWholeSweep) {
  TempDir dir;
  const std::string job = seed_job(dir, "[1, 2, 3, 4, 5]", 1), out = dir.path("seeds.json");
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", out, "--shard", "1/2"}).exit_code, 0);
  const Outcome early = schedbench(dir, {"merge", out});
  EXPECT_EQ(early.exit_code, 3);
  EXPECT_NE(early.err.find("shard 2 of 2: no file"), std::string::npos) << early.err;
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", out, "--shard", "2/2"}).exit_code, 0);
  EXPECT_EQ(read_json(dir.path("seeds.shard-1-of-2.json"))["points"].size(), 3u);
  EXPECT_EQ(read_json(dir.path("seeds.shard-2-of-2.json"))["points"].size(), 2u);
  ASSERT_EQ(schedbench(dir, {"merge", out}).exit_code, 0);

  const std::string whole = dir.path("whole.json");
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", whole}).exit_code, 0);
  const json merged = read_json(out), unsharded = read_json(whole);
  ASSERT_EQ(merged["points"].size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(merged["points"][i]["label"], unsharded["points"][i]["label"]);
    EXPECT_EQ(merged["points"][i]["digest"], unsharded["points"][i]["digest"]);
  }
}

TEST(JobResultsFile, EfficiencyIsTheFastestFittingBoundOverTheMedian) {
  TempDir dir;
  Job job;
  job.name = "e";
  JobResults results(job, 1, 1, nlohmann::ordered_json{{"device", nullptr}});
  const auto put = [&](size_t index, json config, double median_ms) {
    results.put({{"label", "p" + std::to_string(index)},
                 {"index", index},
                 {"config", config},
                 {"status", "ok"},
                 {"stats", {{"median_ms", median_ms}}},
                 {"counters", json::object()}});
  };
  const json bound = {{"sim", "mvp"}, {"scheduler", "bound"}, {"init_n", 10}, {"block_size", 128}};
  json bound_one_per_sm = bound, bound_filled = bound;
  bound_filled["blocks_per_sm"] = "fill";
  bound_one_per_sm["blocks_per_sm"] = 1;
  put(0, bound_filled, 50);
  put(1, bound_one_per_sm, 80);
  // cpu-sync has no blocks_per_sm: both bound points fit; the fastest is the yardstick.
  put(2, {{"sim", "mvp"}, {"scheduler", "cpu-sync"}, {"init_n", 10}, {"block_size", 128}}, 100);
  put(3, {{"sim", "mvp"}, {"scheduler", "cpu-sync"}, {"init_n", 10}, {"block_size", 256}}, 100);
  put(4, {{"sim", "mvp"}, {"scheduler", "cpu-sync"}, {"init_n", 20}, {"block_size", 128}}, 100);
  json one_per_sm = bound_one_per_sm;
  one_per_sm["scheduler"] = "static-full";
  put(5, one_per_sm, 160);
  results.write(dir.path("e.json"));
  const json written = read_json(dir.path("e.json"));
  ASSERT_EQ(written["points"].size(), 6u);
  EXPECT_DOUBLE_EQ(written["points"][2]["counters"]["efficiency"].get<double>(), 0.5);
  EXPECT_FALSE(written["points"][3]["counters"].contains("efficiency"));  // no bound at 256
  EXPECT_FALSE(written["points"][4]["counters"].contains("efficiency"));  // another workload
  EXPECT_DOUBLE_EQ(written["points"][5]["counters"]["efficiency"].get<double>(), 0.5);  // 80/160
  EXPECT_FALSE(written["points"][0]["counters"].contains("efficiency"));
}

// The memory line: a GPU point's record traffic over the device's peak bandwidth, and its median
// against it; CPU points and bound get none, nor results from a machine without a device.
TEST(JobResultsFile, MemoryLineIsRecordTrafficOverPeakBandwidth) {
  TempDir dir;
  Job job;
  job.name = "m";
  const nlohmann::ordered_json environment = {
      {"device", {{"memory_bandwidth_peak_bytes_per_s", 2e12}}}};
  JobResults results(job, 1, 1, environment);
  const auto put = [&](size_t index, const char* scheduler) {
    results.put({{"label", "p" + std::to_string(index)},
                 {"index", index},
                 {"config", {{"sim", "mvp"}, {"scheduler", scheduler}, {"init_n", 10}}},
                 {"status", "ok"},
                 {"stats", {{"median_ms", 4.0}}},
                 {"counts", {{"record_bytes", 4e9}}},
                 {"counters", json::object()}});
  };
  put(0, "dynamic-warp");
  put(1, "cpu-serial");
  put(2, "bound");
  results.write(dir.path("m.json"));
  const json written = read_json(dir.path("m.json"));
  EXPECT_DOUBLE_EQ(written["points"][0]["counters"]["memory_line_ms"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(written["points"][0]["counters"]["memory_efficiency"].get<double>(), 0.5);
  EXPECT_FALSE(written["points"][1]["counters"].contains("memory_line_ms"));
  EXPECT_FALSE(written["points"][2]["counters"].contains("memory_line_ms"));

  JobResults no_device(job, 1, 1, nlohmann::ordered_json{{"device", nullptr}});
  no_device.put(written["points"][0]);
  no_device.write(dir.path("n.json"));
  EXPECT_FALSE(read_json(dir.path("n.json"))["points"][0]["counters"].contains("memory_line_ms"));
}

// Every results file of ours that schedbench's commands read (the schedbench.job/1 files of run
// points; bench_fields' kernels have no digest or counts) passes their checks.
TEST(JobResultsFile, EveryCommittedResultsFileIsRead) {
  size_t files = 0;
  for (const auto& e :
       fs::recursive_directory_iterator(std::string(SCHEDBENCH_SOURCE_DIR) + "/results")) {
    // Google Benchmark's own reports (*.gbench.json, with NaN) are no results of ours.
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".json" || name.find(".gbench.") != std::string::npos) continue;
    const json doc = read_json(e.path().string());
    if (!doc.is_object() || doc.value("schema", "") != kJobSchema ||
        doc["job"].value("spec", json::object()).contains("program"))
      continue;
    try {
      read_results_file(e.path().string());
      ++files;
    } catch (const std::exception& err) {
      ADD_FAILURE() << err.what();
    }
  }
  EXPECT_GE(files, 10u);
}

struct BadSweep {
  const char* name;
  std::vector<std::string> args;  // after "sweep JOB"
  const char* message;
};

void PrintTo(const BadSweep& b, std::ostream* os) {
  *os << b.name;
}

class SweepBadInput : public testing::TestWithParam<BadSweep> {};

TEST_P(SweepBadInput, OneLineExitTwoNothingWritten) {
  TempDir dir;
  const std::string out = dir.path("r.json");
  std::vector<std::string> args = {"sweep", seed_job(dir, "[1, 2]"), "--out", out};
  args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
  const Outcome o = schedbench(dir, args);
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_NE(o.err.find(GetParam().message), std::string::npos) << o.err;
  EXPECT_FALSE(fs::exists(out));
}

const BadSweep kBadSweeps[] = {
    {"shard_index_above_count", {"--shard", "3/2"}, "--shard: '3/2' is not I/N; accepted"},
    {"shard_not_a_fraction", {"--shard", "half"}, "--shard: 'half' is not I/N"},
    {"gpus_not_numbers", {"--gpus", "a,b"}, "--gpus: 'a,b' is not a list of device numbers"},
    {"gpus_twice", {"--gpus", "0,0"}, "--gpus: device 0 is named twice"},
    {"resume_and_overwrite", {"--resume", "--overwrite"}, "--resume and --overwrite: choose one"},
    {"retry_without_resume", {"--retry-failed"}, "--retry-failed: needs --resume"},
    {"point_timeout_zero", {"--point-timeout", "0"}, "--point-timeout: '0' is not a number from 1"},
    {"runner_missing",
     {"--runner", "/nonexistent/runner"},
     "--runner: '/nonexistent/runner' is not an executable file"},
    {"launcher_uncounted",
     {"--launcher", "mpirun -n 2"},
     "--launcher: 'mpirun -n 2' does not say where the rank count goes"},
    // An empty value is refused, never read as the option left out.
    {"interleave_empty", {"--interleave", ""}, "--interleave: empty; accepted: a value"},
    {"order_seed_empty", {"--interleave", "2", "--order-seed", ""}, "--order-seed: empty"},
    {"max_noise_empty", {"--repetitions", "2", "--max-noise", ""}, "--max-noise: empty"},
    {"min_samples_empty", {"--repetitions", "2", "--min-samples", ""}, "--min-samples: empty"},
    {"min_time_empty", {"--repetitions", "2", "--min-time", ""}, "--min-time: empty"},
    {"max_time_empty", {"--repetitions", "2", "--max-time", ""}, "--max-time: empty"},
    {"repetitions_empty", {"--min-samples", "2", "--repetitions", ""}, "--repetitions: empty"},
    {"runner_empty", {"--runner", ""}, "--runner: empty"},
    {"gpus_trailing_comma", {"--gpus", "0,"}, "--gpus: '0,' is not a list of device numbers"},
    // A filter whose compilation or match would overflow the stack or backtrack for ever.
    {"filter_long", {"--filter", std::string(100000, 'a')}, "has 100000 characters; accepted"},
    {"filter_groups",
     {"--filter",
      [] {
        std::string groups;
        for (int i = 0; i < 20000; ++i)
          groups += "(a)";
        return groups;
      }()},
     "has 60000 characters"},
    {"filter_counted", {"--filter", "(a?){50000}"}, "has a counted repetition"},
    {"filter_backreference", {"--filter", "(cpu)\\1"}, "is not a regular expression"},
};

// A job file nested far deeper than any job (the parser's copies recurse once per level).
TEST(Sweep, ADeeplyNestedJobIsRefusedInOneLine) {
  TempDir dir;
  const std::string job =
      dir.write("deep.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial"], "axes": )" +
                                 std::string(100000, '[') + std::string(100000, ']') + "}");
  const Outcome o = schedbench(dir, {"sweep", job, "--list"});
  EXPECT_EQ(o.exit_code, 2) << o.err.substr(0, 300);
  EXPECT_EQ(o.err, "schedbench: error: " + job +
                       ": not valid JSON (nested deeper than 100 levels; accepted: at most 100)\n");
}

// A finished record that lacks what the summary and --resume read (its counts, counters or
// stats.cv) is refused in one line naming the point and the field: never an internal error.
TEST(Sweep, ResumeRefusesARecordWithoutWhatItReads) {
  TempDir dir;
  const std::string job = seed_job(dir, "[1, 2]"), out = dir.path("seeds.json");
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", out}).exit_code, 0);
  const std::string good = testing_support::slurp(out);
  for (const std::string field : {"/counts", "/counters", "/stats/cv", "/counts/final"}) {
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(good);
    const nlohmann::ordered_json::json_pointer at(field);
    doc["points"][1][at.parent_pointer()].erase(at.back());
    const std::string bad = doc.dump(2);
    dir.write("seeds.json", bad);
    const Outcome o = schedbench(dir, {"sweep", job, "--out", out, "--resume"});
    std::string name = field.substr(1);
    std::replace(name.begin(), name.end(), '/', '.');
    EXPECT_EQ(o.exit_code, 2) << field << ": " << o.err;
    EXPECT_NE(o.err.find(out + ": points[1]." + name + ": missing; accepted: "), std::string::npos)
        << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_EQ(testing_support::slurp(out), bad) << field;
  }
}

// A job of points on 1 to 3 ranks (mvp on cpu-serial), in `dir`.
std::string ranks_job(const TempDir& dir) {
  return dir.write("ranks.json", R"({"name": "ranks", "sims": ["mvp"],
    "schedulers": ["cpu-serial"], "repetitions": 2, "warmup": 0,
    "axes": {"init_n": 2001, "steps": 300, "split_chance": 0.3, "ranks": [1, 2, 3]}})");
}

// Each point of several ranks runs behind the launcher, as one simulation: every rank count
// gives the one-rank digest, and the record says how many ranks ran it.
// Points side by side on devices that are not there would share the CPU: refused.
TEST(Sweep, GpusThatDoNotExistAreRefused) {
  TempDir dir;
  const int devices = cuda_device_count();
  const Outcome o = schedbench(dir, {"sweep", seed_job(dir, "[1]"), "--out", dir.path("r.json"),
                                     "--gpus", std::to_string(devices)});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_NE(o.err.find(devices == 0 ? "--gpus: this machine has no CUDA device"
                                    : "does not exist; accepted: 0 to"),
            std::string::npos)
      << o.err;
  EXPECT_FALSE(fs::exists(dir.path("r.json")));
}

// The tests' mpirun as a sweep's --launcher.
std::string mpirun_launcher() {
  std::string launcher;
  for (const std::string& word : testing_support::ranks_argv(2, {}, ""))
    launcher += (word == "2"                               ? "{ranks}"
                 : word == SCHEDBENCH_EXE || word == "run" ? ""
                                                           : word) +
                " ";
  return launcher;
}

TEST(Sweep, APointOfSeveralRanksRunsBehindTheLauncherWithTheOneRankDigest) {
  if (testing_support::mpirun().empty()) GTEST_SKIP() << "mpirun is not installed";
  TempDir dir;
  const Outcome o = schedbench(
      dir, {"sweep", ranks_job(dir), "--out", dir.path("r.json"), "--launcher", mpirun_launcher()});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const nlohmann::json points = read_json(dir.path("r.json"))["points"];
  ASSERT_EQ(points.size(), 3u);
  for (uint32_t k = 0; k < 3; ++k) {
    EXPECT_EQ(points[k]["status"], "ok") << points[k].dump();
    EXPECT_EQ(points[k]["config"]["ranks"], k + 1);
    EXPECT_EQ(points[k]["ranks"], k + 1);
    EXPECT_EQ(points[k]["digest"], points[0]["digest"]) << k + 1 << " ranks";
  }
}

// The processes whose command line names `text` (from /proc).
std::vector<pid_t> processes_naming(const std::string& text) {
  std::vector<pid_t> out;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = testing_support::slurp(e.path().string() + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(text) != std::string::npos) out.push_back(std::stoi(name));
  }
  return out;
}

// A point of several ranks past --point-timeout ends with its ranks: mpirun, asked to stop,
// ends them (killed outright it would leave them running, in process groups of their own).
TEST(Sweep, APointOfSeveralRanksStoppedAtItsTimeoutLeavesNoRank) {
  if (testing_support::mpirun().empty()) GTEST_SKIP() << "mpirun is not installed";
  TempDir dir;
  // Minutes of work on two cores, far longer than its timeout.
  const std::string job = dir.write("long.json", R"({"name": "long", "sims": ["mvp"],
    "schedulers": ["cpu-serial"], "repetitions": 1, "warmup": 0,
    "axes": {"init_n": 1000000, "steps": 100000, "split_chance": 0, "ranks": 2}})");
  const Outcome o = schedbench(dir, {"sweep", job, "--out", dir.path("r.json"), "--launcher",
                                     mpirun_launcher(), "--point-timeout", "5"});
  EXPECT_EQ(o.exit_code, 3) << o.out << o.err;
  // The ranks' command lines name their request, in the sweep's scratch folder in `dir`; none
  // is left once the sweep has ended (a launcher killed outright leaves them to notice its end on
  // their own, if ever).
  const std::vector<pid_t> left = processes_naming(dir.path("r.json.scratch-"));
  EXPECT_TRUE(left.empty()) << left.size() << " rank(s) still running";
  for (const pid_t pid : left)
    kill(pid, SIGKILL);
}

TEST(Sweep, APointOfMoreRanksThanGpusOrWithoutItsLauncherIsRefused) {
  TempDir dir;
  const std::string job = ranks_job(dir);
  if (cuda_device_count() >= 2) {
    const Outcome gpus =
        schedbench(dir, {"sweep", job, "--out", dir.path("r.json"), "--gpus", "0,1"});
    EXPECT_EQ(gpus.exit_code, 2);
    EXPECT_EQ(gpus.err,
              "schedbench: error: --gpus: names 2 device(s), but point mvp__cpu-serial__ranks-3 "
              "takes 3 ranks, one GPU each; accepted: --gpus with at least 3 devices, or no "
              "--gpus (each point then has every GPU)\n");
  }
  const Outcome missing = schedbench(dir, {"sweep", job, "--out", dir.path("r.json"), "--launcher",
                                           "/nonexistent/mpirun -n {ranks}"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--launcher: /nonexistent/mpirun is not an executable on PATH, and "
                             "point mvp__cpu-serial__ranks-2 takes 2 ranks"),
            std::string::npos)
      << missing.err;
  EXPECT_FALSE(fs::exists(dir.path("r.json")));
}

// A launcher that starts fewer ranks than the point takes: its record says so (the run's own
// check names the counts), not only the runner's exit code.
TEST(Sweep, APointWhoseLauncherStartsFewerRanksSaysWhy) {
  TempDir dir;
  const Outcome o = schedbench(dir, {"sweep", ranks_job(dir), "--out", dir.path("r.json"),
                                     "--launcher", "env RANKS={ranks}"});
  EXPECT_EQ(o.exit_code, 3) << o.out << o.err;
  const nlohmann::json points = read_json(dir.path("r.json"))["points"];
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0]["status"], "ok");
  for (uint32_t k = 1; k < 3; ++k) {
    EXPECT_EQ(points[k]["status"], "failed");
    EXPECT_EQ(points[k]["error"],
              fmt::format("--ranks: {} but 1 rank(s) started; accepted: the launcher's count "
                          "(mpirun -n {}, srun -n {}), or no --ranks",
                          k + 1, k + 1, k + 1))
        << points[k].dump();
  }
}

INSTANTIATE_TEST_SUITE_P(Sweep, SweepBadInput, testing::ValuesIn(kBadSweeps),
                         [](const testing::TestParamInfo<BadSweep>& i) { return i.param.name; });

}  // namespace
}  // namespace sb
