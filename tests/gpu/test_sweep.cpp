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

}  // namespace
}  // namespace sb
