// `schedbench sweep` on a GPU: the summary it prints ends with the efficiency against `bound`
// that the results file holds (the scheduler table of one workload: plot/scheduler_table.py).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/gpu.hpp"
#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

using nlohmann::json;
using testing_support::line_containing;
using testing_support::Outcome;
using testing_support::read_json;
using testing_support::schedbench;
using testing_support::TempDir;

TEST(SweepGpu, SummaryShowsEachPointsEfficiencyAgainstBound) {
  SB_REQUIRE_CUDA_DEVICE();
  TempDir dir;
  const std::string job = dir.write("job.json", R"({"name": "eff", "sims": ["mvp"],
    "schedulers": ["dynamic-warp", "bound"], "repetitions": 2, "warmup": 0,
    "axes": {"init_n": 10000, "steps": 100, "split_chance": 2, "block_size": 128}})");
  const std::string out = dir.path("eff.json");
  const Outcome o = schedbench(dir, {"sweep", job, "--out", out});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json r = read_json(out);
  ASSERT_EQ(r["points"].size(), 2u);
  const json& warp = r["points"][0];
  ASSERT_EQ(warp["config"]["scheduler"], "dynamic-warp");
  const double efficiency = warp["counters"]["efficiency"].get<double>();
  EXPECT_GT(efficiency, 0.0);
  const size_t header = o.out.find("particle-steps/s  vs bound");
  ASSERT_NE(header, std::string::npos) << o.out;
  const std::string row = line_containing(o.out.substr(header), "dynamic-warp");
  EXPECT_NE(row.find(fmt::format(" {:.2f} ", efficiency)), std::string::npos) << o.out;
}

// A GPU point of `l2` and `lock` (--l2, --lock-clocks) swept into `out`; its record.
json gpu_point(const TempDir& dir, const std::string& out, const std::string& l2,
               const std::string& lock) {
  const std::string job = dir.write("state.json", R"({"name": "state", "sims": ["mvp"],
    "schedulers": ["dynamic-warp"], "repetitions": 30, "warmup": 1,
    "axes": {"init_n": 100000, "steps": 1000, "split_chance": 0.02, "block_size": 128}})");
  const Outcome o = schedbench(
      dir, {"sweep", job, "--out", out, "--l2", l2, "--lock-clocks", lock, "--overwrite"});
  EXPECT_EQ(o.exit_code, 0) << o.out << o.err;
  const json r = read_json(out);
  EXPECT_EQ(r["points"].size(), 1u);
  return r["points"].at(0);
}

// The energy over a point's timed runs is recorded where NVML reads the counter, and is above
// 0; where it does not, the environment says why.
TEST(SweepGpu, RecordsTheEnergyOfAPointsRuns) {
  SB_REQUIRE_CUDA_DEVICE();
  TempDir dir;
  const std::string out = dir.path("energy.json");
  const json p = gpu_point(dir, out, "hot", "off");
  ASSERT_EQ(p["status"], "ok") << p.dump();
  EXPECT_EQ(p["l2"], "hot");
  const json device = read_json(out)["environment"]["device"];
  if (!p.contains("energy")) GTEST_SKIP() << "no energy counter: " << device.dump();
  EXPECT_FALSE(device.contains("energy_unavailable")) << device.dump();
  EXPECT_GT(p["energy"]["joules"].get<double>(), 0) << p["energy"].dump();
  EXPECT_GT(p["energy"]["joules_per_repetition"].get<double>(), 0);
  EXPECT_GT(p["energy"]["mean_power_w"].get<double>(), 0);
  fmt::print("energy: {} J per repetition, mean power {} W over {} s\n",
             p["energy"]["joules_per_repetition"].dump(), p["energy"]["mean_power_w"].dump(),
             p["energy"]["seconds"].dump());
}

// A cold L2 changes the state the runs find, never their result: the same digest as hot.
TEST(SweepGpu, ColdL2GivesTheSameDigestAsHot) {
  SB_REQUIRE_CUDA_DEVICE();
  TempDir dir;
  const json hot = gpu_point(dir, dir.path("hot.json"), "hot", "off");
  const json cold = gpu_point(dir, dir.path("cold.json"), "cold", "off");
  ASSERT_EQ(hot["status"], "ok") << hot.dump();
  ASSERT_EQ(cold["status"], "ok") << cold.dump();
  EXPECT_EQ(cold["l2"], "cold");
  EXPECT_EQ(cold["digest"], hot["digest"]);
  EXPECT_EQ(cold["counts"], hot["counts"]);
}

// --lock-clocks base locks the clocks where NVML lets this process, and otherwise runs the point
// and records NVML's refusal; a second point gets the same answer.
TEST(SweepGpu, LockClocksLocksOrRecordsTheRefusal) {
  SB_REQUIRE_CUDA_DEVICE();
  TempDir dir;
  const json p = gpu_point(dir, dir.path("locked.json"), "hot", "base");
  ASSERT_EQ(p["status"], "ok") << p.dump();
  ASSERT_TRUE(p.contains("clocks_locked")) << p.dump();
  if (p["clocks_locked"] == true) {
    EXPECT_FALSE(p.contains("clock_lock_refused"));
  } else {
    EXPECT_NE(p["clock_lock_refused"].get<std::string>(), "") << p.dump();
  }
  fmt::print("clocks_locked: {}{}; SM clock after each repetition: {}\n", p["clocks_locked"].dump(),
             p.contains("clock_lock_refused") ? " (" + p["clock_lock_refused"].dump() + ")" : "",
             p.contains("gpu_clocks") ? p["gpu_clocks"]["sm_mhz"].dump() : "-");
  const json again = gpu_point(dir, dir.path("again.json"), "hot", "base");
  EXPECT_EQ(again["clocks_locked"], p["clocks_locked"]);
}

}  // namespace
}  // namespace sb
