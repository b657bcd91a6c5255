// bench_fields' measurements are data: a fields job (jobs/fields-kernels.json) expands into
// points like a sweep's job, bad values are refused with one line, and the runner writes a
// results file of the sweep's schema (results/README.md, schedbench.job/1). The kernels need a
// device; here a stand-in measures them.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "harness/io/environment.hpp"
#include "harness/job/fields_job.hpp"
#include "harness/job/job.hpp"
#include "harness/sweep/fields_sweep.hpp"
#include "tests/support/process.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb {
namespace {

using nlohmann::json;
using testing_support::TempDir;

const std::string kRepositoryJob = std::string(SCHEDBENCH_SOURCE_DIR) + "/jobs/fields-kernels.json";

std::map<std::string, int> count_by_kernel(const FieldsJob& job) {
  std::map<std::string, int> out;
  for (const FieldsPoint& p : job.points)
    ++out[kernel_name(p.config.kernel)];
  return out;
}

TEST(FieldsJob, TheRepositoryJobDeclaresWhatBenchFieldsMeasured) {
  const FieldsJob job = load_fields_job(kRepositoryJob);
  EXPECT_EQ(job.name, "fields-kernels");
  EXPECT_EQ(job.sampling.repetitions, 20);
  EXPECT_GT(job.estimated_s, 0);
  // Deposits: 2 variants x 6 grids x 2 clouds; solves: periodic and open at 64-256, periodic at
  // 512, for each backend; field and gather at 4 grids.
  const std::map<std::string, int> expected = {{"deposit-atomic", 12}, {"deposit-sorted", 12},
                                               {"solve-cufft", 7},     {"solve-fftw", 7},
                                               {"field", 4},           {"gather", 4}};
  EXPECT_EQ(count_by_kernel(job), expected);
  ASSERT_EQ(job.points.size(), 46u);
  EXPECT_EQ(job.points.front().label, "deposit-atomic__cloud-uniform__grid-16");
  EXPECT_EQ(job.points[1].label, "deposit-sorted__cloud-uniform__grid-16");
  EXPECT_EQ(job.points.back().label, "gather__cloud-uniform__grid-512");

  std::vector<int> deposit_grids;
  for (const FieldsPoint& p : job.points) {
    const json config = fields_config_json(p.config);
    const bool solve =
        p.config.kernel == FieldKernel::kSolveCufft || p.config.kernel == FieldKernel::kSolveFftw;
    // Each parameter is recorded where it applies only.
    EXPECT_EQ(config.contains("boundary"), solve) << p.label;
    EXPECT_EQ(config.contains("particles"), !solve && p.config.kernel != FieldKernel::kField)
        << p.label;
    if (config.contains("particles")) {
      EXPECT_EQ(config["particles"], 1000000) << p.label;
    }
    EXPECT_EQ(p.repetitions, p.config.kernel == FieldKernel::kSolveFftw ? 3 : 20) << p.label;
    if (p.config.kernel == FieldKernel::kDepositAtomic && !p.config.clustered)
      deposit_grids.push_back(p.config.grid);
  }
  EXPECT_EQ(deposit_grids, (std::vector<int>{16, 32, 64, 128, 256, 512}));
}

TEST(FieldsJob, SubSweepsJoinAndAParameterMultipliesOnlyTheKernelsItAppliesTo) {
  TempDir dir;
  const std::string path = dir.write("f.json", R"({"program": "bench_fields", "repetitions": 4,
      "axes": [{"kernel": ["field", "solve-fftw"], "grid": 8, "boundary": ["periodic", "open"],
                "cloud": ["uniform", "clustered"]},
               {"kernel": "field", "grid": [8, 16]}]})");
  const FieldsJob job = load_fields_job(path);
  EXPECT_EQ(job.name, "f");
  std::vector<std::string> labels;
  for (const FieldsPoint& p : job.points)
    labels.push_back(p.label);
  // field ignores boundary and cloud: once at grid 8 (the second sub-sweep's is the same point).
  EXPECT_EQ(labels,
            (std::vector<std::string>{"field__grid-8", "solve-fftw__boundary-periodic__grid-8",
                                      "solve-fftw__boundary-open__grid-8", "field__grid-16"}));
  for (const FieldsPoint& p : job.points)
    EXPECT_EQ(p.repetitions, 4);
}

// The one line of the UsageError that loading `text` throws.
std::string refusal(const std::string& text) {
  TempDir dir;
  const std::string path = dir.write("bad.json", text);
  try {
    load_fields_job(path);
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    return what.substr(path.size() + 2);
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

TEST(FieldsJob, BadValuesAreRefusedWithOneLineNamingTheKey) {
  EXPECT_EQ(refusal(R"({"program": "bench_fields", "axes": {"kernel": "field", "grid": [16, 3]}})"),
            "axes.grid[1]: '3' is not a whole number from 4 to 1024, written in decimal");
  EXPECT_EQ(
      refusal(R"({"program": "bench_fields", "axes": {"kernel": "deposit-fast", "grid": 16}})"),
      "axes.kernel: 'deposit-fast' is not accepted; accepted: deposit-atomic, deposit-sorted, "
      "solve-cufft, solve-fftw, field, gather");
  EXPECT_EQ(refusal(R"({"program": "bench_fields",
      "axes": [{"kernel": "field", "grid": 16}, {"kernel": "gather", "grid": 16, "cloud": "ring"}]})"),
            "axes[1].cloud: 'ring' is not accepted; accepted: uniform, clustered");
  EXPECT_EQ(refusal(R"({"program": "bench_fields", "axes": {"kernel": "field", "steps": 5}})"),
            "axes.steps: unknown parameter; accepted: kernel, grid, boundary, cloud, particles, "
            "repetitions");
  EXPECT_EQ(refusal(R"({"program": "bench_fields", "axes": {"kernel": "field"}})"),
            "axes: missing \"grid\"");
  EXPECT_EQ(refusal(R"({"program": "schedbench", "axes": {"kernel": "field", "grid": 8}})"),
            "program: \"schedbench\" is not accepted; accepted: \"bench_fields\" (a sweep's job "
            "has no \"program\": schedbench sweep runs it)");
  EXPECT_EQ(refusal(R"({"axes": {"kernel": "field", "grid": 8}})"), "program: missing");
  // A value is checked where it applies to no point too, as a sweep's job checks it.
  EXPECT_EQ(refusal(R"({"program": "bench_fields",
      "axes": {"kernel": "field", "grid": 8, "particles": 0}})"),
            "axes.particles: '0' is not a whole number from 1 to 100000000, written in decimal");
}

TEST(FieldsJob, SchedbenchSweepRefusesAFieldsJob) {
  try {
    load_job(kRepositoryJob, true);
    ADD_FAILURE() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("program: \"bench_fields\" runs this job, not schedbench"),
              std::string::npos)
        << e.what();
  }
}

// Stands in for the device: each point's repetitions take 1, 2, ... ms; grid 16 fails.
TimedRepetitions stand_in(const FieldsPoint& p, int, nlohmann::ordered_json& counters) {
  if (p.config.grid == 16) throw RunError("needs 9 GB; the device has 1 GB free of 80 GB");
  TimedRepetitions t;
  for (int i = 1; i <= p.repetitions; ++i)
    t.times_ms.push_back(i);
  counters["particles_per_cell"] = 0.5;
  return t;
}

TEST(FieldsSweep, WritesAResultsFileOfTheSweepsSchema) {
  TempDir dir;
  const std::string job_path = dir.write("k.json", R"({"program": "bench_fields",
      "description": "two kernels", "repetitions": 3, "warmup": 2,
      "axes": {"kernel": ["deposit-atomic", "solve-fftw"], "grid": [8, 16]}})");
  const FieldsJob job = load_fields_job(job_path);
  const std::string out = dir.path("results/k.json"), log_path = dir.path("log");
  std::FILE* log = std::fopen(log_path.c_str(), "w");
  const size_t failed = run_fields_job(job, out, environment_json(), stand_in, log);
  std::fclose(log);
  EXPECT_EQ(failed, 2u);

  const json doc = json::parse(testing_support::slurp(out));
  EXPECT_EQ(doc["schema"], "schedbench.job/1");
  EXPECT_EQ(doc["job"]["name"], "k");
  EXPECT_EQ(doc["job"]["description"], "two kernels");
  EXPECT_EQ(doc["job"]["spec"]["program"], "bench_fields");
  EXPECT_EQ(doc["shard"]["planned_points"], 4);
  EXPECT_TRUE(doc["environment"].contains("host"));
  EXPECT_TRUE(doc["environment"].contains("build"));
  const json& points = doc["points"];
  ASSERT_EQ(points.size(), 4u);
  for (size_t i = 0; i < points.size(); ++i) {
    const json& p = points[i];
    EXPECT_EQ(p["index"], i);
    EXPECT_EQ(p["label"], job.points[i].label);
    EXPECT_EQ(p["config"], fields_config_json(job.points[i].config));
    EXPECT_TRUE(p["finished_utc"].is_string());
    EXPECT_TRUE(p["wall_s"].is_number());
    // The host solve runs on no GPU.
    EXPECT_EQ(p.contains("gpu"), p["config"]["kernel"] != "solve-fftw") << p;
    if (p["config"]["grid"] == 16) {
      EXPECT_EQ(p["status"], "failed");
      EXPECT_EQ(p["failure"], "run-error");
      EXPECT_EQ(p["error"], "needs 9 GB; the device has 1 GB free of 80 GB");
      continue;
    }
    EXPECT_EQ(p["status"], "ok");
    EXPECT_EQ(p["warmup"], 2);
    EXPECT_EQ(p["repetitions_ms"], json({1.0, 2.0, 3.0}));
    EXPECT_EQ(p["stats"]["median_ms"], 2.0);
    EXPECT_EQ(p["stats"]["max_ms"], 3.0);
    EXPECT_EQ(p["counters"]["particles_per_cell"], 0.5);
    // The sweep's writer adds no efficiency (there is no bound) and no scheduler.
    EXPECT_FALSE(p["counters"].contains("efficiency"));
    EXPECT_FALSE(p["config"].contains("scheduler"));
  }
  const std::string progress = testing_support::slurp(log_path);
  EXPECT_NE(progress.find("deposit-atomic__grid-8"), std::string::npos) << progress;
  EXPECT_NE(progress.find("FAILED (run-error): needs 9 GB"), std::string::npos) << progress;
}

TEST(BenchFields, RefusesABadJobWithOneLineAndExitCode2) {
  TempDir dir;
  const std::string job = dir.write("bad.json", R"({"program": "bench_fields",
      "axes": {"kernel": "field", "grid": 2000}})");
  const testing_support::Outcome o = testing_support::run_program(
      {BENCH_FIELDS_EXE, job, "--out", dir.path("r.json")}, dir.path(""));
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(o.err, "bench_fields: error: " + job +
                       ": axes.grid: '2000' is not a whole number from 4 to 1024, written in "
                       "decimal\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path("r.json")));
}

TEST(BenchFields, SaysItNeedsACudaDeviceWithExitCode3) {
  if (cuda_device_present()) GTEST_SKIP() << "a CUDA device is present: bench_fields would run";
  TempDir dir;
  const testing_support::Outcome o = testing_support::run_program(
      {BENCH_FIELDS_EXE, kRepositoryJob, "--out", dir.path("r.json")}, dir.path(""));
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_EQ(o.err,
            "bench_fields: run failed: bench_fields needs a CUDA device and none is present\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path("r.json")));
}

}  // namespace
}  // namespace sb
