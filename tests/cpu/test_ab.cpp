// A/A and A/B on the CPU demo job, small (docs/guide.md, "Comparing two results files" and
// "Comparing two builds"): one build swept twice, the second time and a third under a CPU load the
// test makes, compared with the noise floor the first pair calibrated, gives no faster or slower
// verdict; `schedbench ab` of a build against itself under load gives none either; against a
// build that does 1.3 times the work of each point it finds every point slower. Bad input is one
// line, exit 2, nothing written.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

using testing_support::Outcome;
using testing_support::read_json;
using testing_support::TempDir;

// schedbench with cpu-openmp's threads bound to cores (OMP_PROC_BIND), so that the load lands on
// one of them in every sweep. Unbound, the scheduler moves them, and under the load their runs took
// 2.7 times as long in one sweep and 7.8 times in the next (a 2 ms point, on 2 cores): drift that
// no floor from one pair covers, and that these tests would then measure instead of the routes.
Outcome bound_schedbench(const TempDir& dir, const std::vector<std::string>& args) {
  return testing_support::schedbench(dir, args, {"OMP_PROC_BIND=true"});
}

// A thread busy on one core while it lives: a neighbour on the machine, held to the first core
// this process may use, as a process bound there would be.
class CpuLoad {
 public:
  CpuLoad()
      : spinner_([this] {
          cpu_set_t allowed, first;
          CPU_ZERO(&first);
          if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
            for (int c = 0; c < CPU_SETSIZE; ++c) {
              if (CPU_ISSET(c, &allowed)) {
                CPU_SET(c, &first);
                break;
              }
            }
            pthread_setaffinity_np(pthread_self(), sizeof first, &first);
          }
          while (!stop_.load(std::memory_order_relaxed)) {
          }
        }) {}
  ~CpuLoad() {
    stop_ = true;
    spinner_.join();
  }
  CpuLoad(const CpuLoad&) = delete;
  CpuLoad& operator=(const CpuLoad&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::thread spinner_;
};

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
                                  "1"};
  out.insert(out.end(), sampling.begin(), sampling.end());
  return out;
}

// A sweep's: the stopping rule with a noise limit that a loaded machine meets, so that its points
// are not marked noisy (which would take their verdicts away whatever the floor).
const std::vector<std::string> kSweepSampling = {"--min-samples", "6", "--max-noise", "50",
                                                 "--max-time",    "2"};
// ab's: 3 repetitions in each of 20 rounds, so that one disturbed run moves no round's median and
// five disturbed rounds no interval's end (x(6) to x(15) of the 20 ratios).
const std::vector<std::string> kAbSampling = {"--repetitions", "60", "--rounds", "20"};

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

void sweep(const TempDir& dir, const std::string& out) {
  const Outcome o = bound_schedbench(
      dir, with({"sweep"}, with(small_demo(kSweepSampling), {"--out", dir.path(out)})));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
}

TEST(AbAndFloor, AnAAPairUnderLoadGivesNoVerdictWithTheCalibratedFloor) {
  TempDir dir;
  sweep(dir, "quiet.json");
  {
    const CpuLoad load;
    sweep(dir, "loaded.json");
  }
  const Outcome calibrated =
      bound_schedbench(dir, {"compare", dir.path("quiet.json"), dir.path("loaded.json"),
                             "--calibrate", dir.path("floor.json")});
  ASSERT_EQ(calibrated.exit_code, 0) << calibrated.err;
  EXPECT_NE(calibrated.out.find("noise floor of cpu-"), std::string::npos) << calibrated.out;
  const nlohmann::json floor = read_json(dir.path("floor.json"));
  EXPECT_EQ(floor["schema"], "schedbench.noise-floor/1");
  ASSERT_EQ(floor["devices"].size(), 1u) << floor.dump(2);
  {
    const CpuLoad load;
    sweep(dir, "again.json");
  }
  const Outcome o =
      bound_schedbench(dir, {"compare", dir.path("quiet.json"), dir.path("again.json"),
                             "--noise-floor", dir.path("floor.json"), "--format", "json"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  expect_no_faster_or_slower(nlohmann::json::parse(o.out), calibrated.out + o.out);
  const Outcome gate =
      bound_schedbench(dir, {"compare", dir.path("quiet.json"), dir.path("again.json"),
                             "--noise-floor", dir.path("floor.json"), "--fail-if-slower", "0"});
  EXPECT_EQ(gate.exit_code, 0) << gate.out << gate.err;
}

TEST(AbAndFloor, AbOfABuildAgainstItselfUnderLoadGivesNoVerdict) {
  TempDir dir;
  const CpuLoad load;
  // The same build named as a schedbench and as its bin folder.
  const Outcome o = bound_schedbench(
      dir, with({"ab", "--a", SCHEDBENCH_EXE, "--b",
                 std::filesystem::path(SCHEDBENCH_POINT_EXE).parent_path().string(), "--out",
                 dir.path("ab.json")},
                small_demo(kAbSampling)));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const nlohmann::json ab = read_json(dir.path("ab.json"));
  EXPECT_EQ(ab["schema"], "schedbench.ab/1");
  expect_no_faster_or_slower(ab, o.out);
  for (const nlohmann::json& p : ab["points"]) {
    EXPECT_FALSE(p["digest_changed"].get<bool>()) << p.dump();
    ASSERT_EQ(p["rounds"].size(), 20u);
    EXPECT_EQ(p["rounds"][0]["first"], "A");
    EXPECT_EQ(p["rounds"][1]["first"], "B");
  }
}

TEST(AbAndFloor, AbFindsAPlantedThirtyPercentSlowdown) {
  TempDir dir;
  // The slower build: an install prefix whose schedbench-point runs 1.3 times the steps.
  std::filesystem::create_directories(dir.path("slower/bin"));
  const std::string point =
      dir.write("slower/bin/schedbench-point",
                "#!/bin/sh\nexec " + std::string(SCHEDBENCH_SOURCE_DIR) +
                    "/tests/support/slower_point.sh " + SCHEDBENCH_POINT_EXE + " \"$@\"\n");
  std::filesystem::permissions(point, std::filesystem::perms::owner_all);
  const Outcome o = bound_schedbench(dir, with({"ab", "--a", SCHEDBENCH_POINT_EXE, "--b",
                                                dir.path("slower"), "--out", dir.path("ab.json")},
                                               small_demo(kAbSampling)));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const nlohmann::json ab = read_json(dir.path("ab.json"));
  ASSERT_EQ(ab["points"].size(), 4u) << o.out;
  for (const nlohmann::json& p : ab["points"]) {
    EXPECT_EQ(p["verdict"], "slower") << o.out;
    EXPECT_TRUE(p["digest_changed"].get<bool>()) << p.dump();  // more steps, another run
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
    const Outcome o = bound_schedbench(dir, args);
    EXPECT_EQ(o.exit_code, 2) << args[2] << " " << args[3] << o.out << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

}  // namespace
}  // namespace sb
