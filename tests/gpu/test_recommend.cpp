// `schedbench recommend` on a GPU: GPU candidates across block sizes, the bound measured at the
// winner's configuration, and a run command that computes what the winner measured.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/gpu.hpp"
#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

using nlohmann::json;
using testing_support::command_words;
using testing_support::Outcome;
using testing_support::read_json;
using testing_support::schedbench;
using testing_support::TempDir;

const json* find_point(const json& results, const std::string& label) {
  for (const json& p : results["points"]) {
    if (p["label"] == label) return &p;
  }
  return nullptr;
}

TEST(RecommendGpu, RanksGpuCandidatesMeasuresTheBoundAndItsRunCommandRuns) {
  SB_REQUIRE_CUDA_DEVICE();
  TempDir dir;
  const std::string out = dir.path("rec.json");
  const Outcome o =
      schedbench(dir, {"recommend", "--sim", "mvp", "--init-n", "1e5", "--steps", "200",
                       "--split-chance", "2", "--schedulers", "dynamic-warp,static-full,naive",
                       "--block-sizes", "128,256", "--budget", "300", "--out", out});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json r = read_json(out);
  const json& rec = r["recommend"];
  // 3 schedulers x 2 block sizes, all screened in one process; naive, with a launch a step, is
  // many times slower than the others and may be stopped there.
  EXPECT_EQ(rec["screened"], 6) << rec.dump(2);
  EXPECT_EQ(rec["ranking"].size() + rec["stopped"].size(), 6u) << rec.dump(2);
  EXPECT_EQ(rec["processes"], 1);
  EXPECT_GE(rec["rounds"], 1);
  EXPECT_FALSE(rec["budget_spent"].get<bool>());
  // Leaders still within noise after halving are settled with more repetitions (and may stay
  // within noise: two block sizes of one scheduler can be equally fast); leaders the first round
  // already told apart are not.
  // Within noise, the winner's lower median may be the lower in fewer than half of the
  // resamples (two equally fast leaders, their times on one timer's ticks, tie in many); a
  // verdict that tells them apart needs at least half.
  const double p_fastest = rec["verdict"]["p_fastest"].get<double>();
  if (rec["verdict"]["kind"] == "within-noise") {
    EXPECT_GE(rec["ranking"][0]["repetitions"].get<int>(), 6) << rec.dump(2);
    EXPECT_GE(p_fastest, 0.0) << rec.dump(2);
  } else {
    EXPECT_GE(p_fastest, 0.5) << rec.dump(2);
  }
  // Where a point is missing, recommend's own output says what its budget did.
  const json* winner_point = find_point(r, rec["winner"]);
  ASSERT_NE(winner_point, nullptr) << o.out << o.err;
  const json& winner = *winner_point;
  EXPECT_EQ(winner["status"], "ok");
  EXPECT_GE(winner["repetitions_ms"].size(), 3u);
  const json* bound_point = find_point(r, "mvp__bound");
  ASSERT_NE(bound_point, nullptr) << o.out << o.err;
  const json& bound = *bound_point;
  ASSERT_EQ(bound["status"], "ok") << bound.dump(2);
  EXPECT_EQ(bound["config"]["block_size"], winner["config"]["block_size"]);
  EXPECT_GT(winner["counters"]["efficiency"].get<double>(), 0.0);
  for (const json& p : r["points"]) {
    if (p["config"]["scheduler"] == "bound") continue;  // a yardstick: it computes no particles
    EXPECT_EQ(p["digest"], winner["digest"]) << p["label"];
  }

  std::vector<std::string> args = command_words(rec["run_command"]);
  args.erase(args.begin());
  const std::string single = dir.path("single.json");
  args.insert(args.end(), {"--json", single});
  const Outcome run = schedbench(dir, args);
  ASSERT_EQ(run.exit_code, 0) << rec["run_command"] << "\n" << run.err;
  const json ran = read_json(single);
  EXPECT_EQ(ran["config"], winner["config"]);
  EXPECT_EQ(ran["result"]["digest"], winner["digest"]);
}

}  // namespace
}  // namespace sb
