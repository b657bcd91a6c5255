// Job files are data: expansion into points, and one-line errors naming the file and the key.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "harness/job.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb {
namespace {

using testing_support::TempDir;

std::string usage_error(const std::string& path) {
  try {
    load_job(path, false);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Job, ExpandsSimsSchedulersAndApplicableAxes) {
  TempDir dir;
  const std::string path = dir.write("j.json", R"({
    "name": "j", "sims": ["toy", "mvp"], "schedulers": ["cpu-serial", "cpu-openmp"],
    "axes": {"init_n": [10, 20, 30], "steps": 5, "split_chance": [0.1, 0.2]}})");
  const Job job = load_job(path, false);
  // toy: 3 init_n values; mvp: 3 x 2 split chances; each for 2 schedulers.
  EXPECT_EQ(job.points.size(), 2u * 3u + 2u * 6u);
  EXPECT_EQ(job.points.front().config.sim, "toy");
  EXPECT_EQ(job.points.front().label, "toy__cpu-serial__init_n-10");
  EXPECT_EQ(job.points.back().config.split_chance, 0.2);
  EXPECT_EQ(job.points.back().config.init_n, 30u);
}

TEST(Job, RangesLinearAndLog) {
  TempDir dir;
  const std::string path = dir.write("j.json", R"({
    "sims": ["mvp"], "schedulers": ["cpu-serial"],
    "axes": {"init_n": {"log": [100, 10000], "points": 3}, "steps": {"linear": [100, 300], "step": 100}}})");
  const Job job = load_job(path, false);
  ASSERT_EQ(job.points.size(), 9u);
  EXPECT_EQ(job.points[0].config.init_n, 100u);
  EXPECT_EQ(job.points[1].config.init_n, 1000u);
  EXPECT_EQ(job.points[2].config.init_n, 10000u);
  EXPECT_EQ(job.points[8].config.steps, 300u);
}

TEST(Job, FallbackSchedulersRunWithoutADevice) {
  TempDir dir;
  const std::string path = dir.write("j.json", R"({
    "sims": ["mvp"], "schedulers": ["cpu-serial"], "fallback_schedulers": ["cpu-openmp"],
    "axes": {"init_n": 10, "steps": 5}})");
  EXPECT_EQ(load_job(path, false).points.at(0).config.scheduler, "cpu-openmp");
  EXPECT_EQ(load_job(path, true).points.at(0).config.scheduler, "cpu-serial");
}

TEST(Job, SubSweepsAreJoinedAndASharedPointRunsOnce) {
  TempDir dir;
  const std::string path = dir.write("j.json", R"({
    "sims": ["mvp"], "schedulers": ["cpu-serial"], "repetitions": 5, "warmup": 0, "estimated_s": 12,
    "figures": ["5.11"],
    "axes": [{"init_n": [10, 20], "steps": 5}, {"init_n": 10, "steps": [5, 7]}]})");
  const Job job = load_job(path, false);
  EXPECT_EQ(job.name, "j");  // from the file name
  EXPECT_EQ(job.repetitions, 5);
  EXPECT_EQ(job.warmup, 0);
  EXPECT_EQ(job.estimated_s, 12.0);
  EXPECT_EQ(job.figures, std::vector<std::string>{"5.11"});
  // (10, 5) is in both sub-sweeps.
  ASSERT_EQ(job.points.size(), 3u);
  EXPECT_EQ(job.points[0].label, "mvp__cpu-serial__init_n-10__steps-5");
  EXPECT_EQ(job.points[1].label, "mvp__cpu-serial__init_n-20__steps-5");
  EXPECT_EQ(job.points[2].label, "mvp__cpu-serial__init_n-10__steps-7");
}

TEST(Job, EveryJobInTheRepositoryLoads) {
  size_t jobs = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(SCHEDBENCH_SOURCE_DIR) + "/jobs")) {
    if (e.path().extension() != ".json") continue;
    ++jobs;
    for (const bool gpu : {false, true}) {
      try {
        const Job job = load_job(e.path().string(), gpu);
        EXPECT_EQ(job.name, e.path().stem().string());
        EXPECT_FALSE(job.points.empty());
      } catch (const std::exception& err) {
        ADD_FAILURE() << err.what();
      }
    }
  }
  EXPECT_GE(jobs, 12u);
}

TEST(Job, BadFilesNameTheFileAndTheKey) {
  TempDir dir;
  const std::string head = R"({"sims": ["mvp"], "schedulers": ["cpu-serial"], )";
  const std::string ok_axes = R"("axes": {"init_n": 10, "steps": 5})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      // file, part of its error
      {head + R"("bogus": 1, )" + ok_axes + "}", "bad.json: bogus: unknown key"},
      {R"({"sims": "mvp", "schedulers": ["cpu-serial"], )" + ok_axes + "}",
       "bad.json: sims: must be a non-empty list"},
      {head + R"("axes": {"init_n": [], "steps": 5}})", "bad.json: axes.init_n: is an empty list"},
      {head + R"("axes": {"init_n": "many", "steps": 5}})",
       "bad.json: axes.init_n: 'many' is not a whole number"},
      {head + R"("axes": {"init_n": 10, "steps": 5, "capacity": 5}})",
       "--capacity: 5 is below --init-n 10"},
      {head + R"("axes": {"init_n": 10, "warp": 5, "steps": 5}})",
       "bad.json: axes.warp: unknown parameter"},
      {R"({"sims": ["mvp"], "schedulers": ["nope"], )" + ok_axes + "}",
       "'nope' is not a scheduler"},
      {head + R"("axes": {"init_n": 10}})", "--steps: required"},
      {"{not json", "bad.json: not valid JSON"},
      {head + R"("repetitions": 0, )" + ok_axes + "}",
       "bad.json: repetitions: 0 is not a whole number from 1 to 1000"},
      {head + R"("warmup": "one", )" + ok_axes + "}",
       "bad.json: warmup: \"one\" is not a whole number"},
      {head + R"("estimated_s": -1, )" + ok_axes + "}",
       "bad.json: estimated_s: must be seconds above 0"},
      {head + R"("name": 7, )" + ok_axes + "}", "bad.json: name: must be text"},
      {head + R"("axes": []})", "bad.json: axes: is an empty list of sub-sweeps"},
      {head + R"("axes": [{"init_n": 10, "steps": 5}, {"init_n": 10, "steps": []}]})",
       "bad.json: axes[1].steps: is an empty list"},
  };
  for (const auto& [text, message] : cases) {
    const std::string error = usage_error(dir.write("bad.json", text));
    EXPECT_NE(error.find(message), std::string::npos) << text << "\ngave: " << error;
  }
}

}  // namespace
}  // namespace sb
