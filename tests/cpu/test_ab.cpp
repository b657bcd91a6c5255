// A/A and A/B on the CPU demo job, small (docs/guide.md, "Comparing two results files" and
// "Comparing two builds"), with the times planted (tests/support/timed_point.sh) so that no
// verdict depends on how busy the machine is: an A/A pair whose second sweep drifted by 20 %
// calibrates a noise floor under which a third sweep 15 % off gives no faster or slower verdict;
// `schedbench ab` of two builds of equal times gives none either, and against a build 30 % slower
// it finds every point slower. Bad input is one line, exit 2, nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

using testing_support::Outcome;
using testing_support::read_json;
using testing_support::schedbench;
using testing_support::TempDir;

// A folder that stands for a build whose schedbench-point records every repetition as `ms`
// milliseconds, its counts and digest the real build's.
std::string timed_build(const TempDir& dir, const std::string& name, const std::string& ms) {
  std::filesystem::create_directories(dir.path(name + "/bin"));
  const std::string point =
      dir.write(name + "/bin/schedbench-point",
                "#!/bin/sh\nexec " + std::string(SCHEDBENCH_SOURCE_DIR) +
                    "/tests/support/timed_point.sh " + SCHEDBENCH_POINT_EXE + " " + ms +
                    " \"$@\"\n");
  std::filesystem::permissions(point, std::filesystem::perms::owner_all);
  return dir.path(name);
}

// jobs/demo.json's CPU fallback (cpu-serial and cpu-openmp) at two sizes and 100 steps, measured
// by `sampling`.
std::vector<std::string> small_demo(const std::vector<std::string>& sampling) {
  std::vector<std::string> out = {std::string(SCHEDBENCH_SOURCE_DIR) + "/jobs/demo.json",
                                  "-a",
                                  "scheduler=cpu-serial,cpu-openmp",
                                  "-a",
                                  "init_n=10000,100000",
                                  "-a",
                                  "steps=100",
                                  "--warmup",
                                  "0"};
  out.insert(out.end(), sampling.begin(), sampling.end());
  return out;
}

const std::vector<std::string> kSweepSampling = {"--repetitions", "3"};
const std::vector<std::string> kAbSampling = {"--repetitions", "6", "--rounds", "6"};

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// The verdicts of a comparison file (schedbench.compare/1 or schedbench.ab/1), each with its point.
std::vector<std::string> verdicts(const nlohmann::json& c) {
  std::vector<std::string> out;
  for (const nlohmann::json& p : c["points"])
    out.push_back(p["label"].get<std::string>() + ": " + p["verdict"].get<std::string>());
  return out;
}

void expect_no_faster_or_slower(const nlohmann::json& c, const std::string& shown) {
  ASSERT_EQ(c["points"].size(), 4u) << shown;
  for (const std::string& v : verdicts(c)) {
    EXPECT_EQ(v.find("faster"), std::string::npos) << shown;
    EXPECT_EQ(v.find("slower"), std::string::npos) << shown;
  }
}

// A sweep into `out` whose every repetition takes `ms`.
void sweep(const TempDir& dir, const std::string& out, const std::string& ms) {
  const std::string runner = timed_build(dir, "runner-" + ms, ms) + "/bin/schedbench-point";
  const Outcome o = schedbench(
      dir, with({"sweep"}, with(small_demo(kSweepSampling),
                                {"--out", dir.path(out), "--runner", runner})));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
}

TEST(AbAndFloor, AnAAPairThatDriftedCalibratesAFloorUnderWhichDriftGivesNoVerdict) {
  TempDir dir;
  sweep(dir, "quiet.json", "10");
  sweep(dir, "drifted.json", "12");  // the same build 20 % slower in its second sweep
  const Outcome calibrated =
      schedbench(dir, {"compare", dir.path("quiet.json"), dir.path("drifted.json"),
                       "--calibrate", dir.path("floor.json")});
  ASSERT_EQ(calibrated.exit_code, 0) << calibrated.err;
  EXPECT_NE(calibrated.out.find("noise floor of cpu-"), std::string::npos) << calibrated.out;
  const nlohmann::json floor = read_json(dir.path("floor.json"));
  EXPECT_EQ(floor["schema"], "schedbench.noise-floor/1");
  ASSERT_EQ(floor["devices"].size(), 1u) << floor.dump(2);
  sweep(dir, "again.json", "11.5");
  const Outcome bare = schedbench(
      dir, {"compare", dir.path("quiet.json"), dir.path("again.json"), "--format", "json"});
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  for (const std::string& v : verdicts(nlohmann::json::parse(bare.out)))
    EXPECT_NE(v.find("slower"), std::string::npos) << bare.out;  // without the floor
  const Outcome o =
      schedbench(dir, {"compare", dir.path("quiet.json"), dir.path("again.json"), "--noise-floor",
                       dir.path("floor.json"), "--format", "json"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  expect_no_faster_or_slower(nlohmann::json::parse(o.out), calibrated.out + o.out);
  const Outcome gate =
      schedbench(dir, {"compare", dir.path("quiet.json"), dir.path("again.json"),
                       "--noise-floor", dir.path("floor.json"), "--fail-if-slower", "0"});
  EXPECT_EQ(gate.exit_code, 0) << gate.out << gate.err;
}

TEST(AbAndFloor, AbOfTwoBuildsOfEqualTimesGivesNoVerdict) {
  TempDir dir;
  const Outcome o =
      schedbench(dir, with({"ab", "--a", timed_build(dir, "a", "10"), "--b",
                            timed_build(dir, "b", "10"), "--out", dir.path("ab.json")},
                           small_demo(kAbSampling)));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const nlohmann::json ab = read_json(dir.path("ab.json"));
  EXPECT_EQ(ab["schema"], "schedbench.ab/1");
  expect_no_faster_or_slower(ab, o.out);
  for (const nlohmann::json& p : ab["points"]) {
    EXPECT_FALSE(p["digest_changed"].get<bool>()) << p.dump();
    ASSERT_EQ(p["rounds"].size(), 6u);
    EXPECT_EQ(p["rounds"][0]["first"], "A");
    EXPECT_EQ(p["rounds"][1]["first"], "B");
  }
}

TEST(AbAndFloor, AbFindsAPlantedThirtyPercentSlowdown) {
  TempDir dir;
  const Outcome o =
      schedbench(dir, with({"ab", "--a", timed_build(dir, "a", "10"), "--b",
                            timed_build(dir, "slower", "13"), "--out", dir.path("ab.json")},
                           small_demo(kAbSampling)));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const nlohmann::json ab = read_json(dir.path("ab.json"));
  ASSERT_EQ(ab["points"].size(), 4u) << o.out;
  for (const nlohmann::json& p : ab["points"]) {
    EXPECT_EQ(p["verdict"], "slower") << o.out;
    EXPECT_FALSE(p["digest_changed"].get<bool>()) << p.dump();  // the same runs, slower times
  }
  EXPECT_NE(o.out.find("slower 4"), std::string::npos) << o.out;
}

TEST(AbAndFloor, AbRefusesBadInputInOneLineAndWritesNothing) {
  TempDir dir;
  std::filesystem::create_directories(dir.path("empty"));
  const std::string out = dir.path("ab.json");
  const std::vector<std::string> demo = small_demo(kAbSampling);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           with({"ab", "--a", dir.path("empty"), "--b", SCHEDBENCH_EXE, "--out", out}, demo),
           with({"ab", "--a", SCHEDBENCH_EXE, "--b", dir.path("missing"), "--out", out}, demo),
           with(with({"ab", "--a", SCHEDBENCH_EXE, "--b", SCHEDBENCH_EXE, "--out", out}, demo),
                {"--rounds", "3"}),
           {"ab", "--a", SCHEDBENCH_EXE, "--b", SCHEDBENCH_EXE, "--out", out,
            dir.path("missing.json")},
           {"ab", "--b", SCHEDBENCH_EXE, "--out", out, demo[0]}}) {
    const Outcome o = schedbench(dir, args);
    EXPECT_EQ(o.exit_code, 2) << args[2] << " " << args[3] << o.out << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

}  // namespace
}  // namespace sb
