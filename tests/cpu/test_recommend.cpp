// `schedbench recommend`: successive halving driven by a fake measurer and a fake clock (which
// candidate wins, the budget, failures, ties), and the command end to end on the CPU engines.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "harness/sweep/halving.hpp"
#include "harness/sweep/recommend.hpp"
#include "schedulers/registry.hpp"
#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

using nlohmann::json;
using testing_support::command_words;
using testing_support::Outcome;
using testing_support::read_json;
using testing_support::schedbench;
using testing_support::TempDir;

// Candidates whose repetitions take `base_ms[k]` plus a small repeating jitter, on a clock that
// each measurement advances by its runs' time (a warm-up and the repetitions) and a start-up,
// honouring the deadline it is given as the real one does.
class FakeBench {
 public:
  explicit FakeBench(std::vector<double> base_ms, double jitter_ms = 0.2)
      : base_ms_(std::move(base_ms)), jitter_ms_(jitter_ms) {}

  std::set<size_t> failing;  // these candidates fail as a crash would
  double startup_s = 0.05;
  double seconds_per_ms = 1;  // how far a millisecond of run time moves the clock

  // The screening's look: one run, stopped where it would pass `stop_after_ms`.
  Measurement screen(size_t k, double stop_after_ms, double deadline_s) {
    if (stop_after_ms > 0 && base_ms_[k] > stop_after_ms) {
      ++calls[k];
      now += startup_s + stop_after_ms * seconds_per_ms;
      return {Measurement::Status::kStopped, {}, "stopped"};
    }
    return (*this)(k, 1, deadline_s);
  }

  Measurement operator()(size_t k, int repetitions, double deadline_s) {
    ++calls[k];
    std::vector<double> times;
    for (int i = 0; i < repetitions; ++i)
      times.push_back(base_ms_[k] + jitter_ms_ * static_cast<double>((i * 7 + k) % 5) / 4);
    double cost = startup_s + base_ms_[k] * seconds_per_ms;  // the warm-up
    for (const double t : times)
      cost += t * seconds_per_ms;
    if (cost > deadline_s) {
      now += deadline_s;
      return {Measurement::Status::kOutOfTime, {}, ""};
    }
    now += cost;
    max_now = std::max(max_now, now);
    if (failing.count(k) > 0) return {Measurement::Status::kFailed, {}, "killed by signal SIGSEGV"};
    return {Measurement::Status::kOk, times, ""};
  }

  double now = 0, max_now = 0;
  std::map<size_t, int> calls;

 private:
  std::vector<double> base_ms_;
  double jitter_ms_;
};

HalvingResult halve(FakeBench& bench, size_t n, double budget_s) {
  HalvingOptions o;
  o.budget_s = budget_s;
  return successive_halving(n, o, std::ref(bench), [&] { return bench.now; });
}

TEST(Halving, TheFastestWinsAndTheSlowHalfIsDroppedEachRound) {
  // Candidate 5 is the fastest; the others are at least 1 ms slower, beyond the 0.2 ms jitter.
  FakeBench bench({14, 12, 13, 17, 16, 10, 15, 11}, 0.2);
  bench.seconds_per_ms = 0.001;
  const HalvingResult r = halve(bench, 8, 100);
  ASSERT_EQ(r.ranking.size(), 8u);
  EXPECT_EQ(r.ranking[0].index, 5u);
  EXPECT_EQ(r.ranking[1].index, 7u);  // the runner-up of the last round
  EXPECT_EQ(r.rounds, 3);             // 8 -> 4 -> 2 -> 1
  EXPECT_FALSE(r.budget_spent);
  EXPECT_EQ(bench.calls[5], 3);
  EXPECT_EQ(bench.calls[3], 1);                  // the slowest went after the first round
  EXPECT_EQ(r.ranking[0].times_ms.size(), 12u);  // 3, 6, then 12 repetitions
  EXPECT_EQ(r.ranking[0].round, 3);
  EXPECT_EQ(r.ranking.back().round, 1);
  EXPECT_EQ(r.verdict.kind, Verdict::Kind::kSeparated) << r.verdict.text;
  for (size_t k = 1; k < r.ranking.size(); ++k) {
    if (r.ranking[k].round == r.ranking[k - 1].round) {
      EXPECT_LE(r.ranking[k - 1].spread.median, r.ranking[k].spread.median);
    }
  }
}

TEST(Halving, NeverRunsPastTheBudget) {
  // Each measurement of 3 repetitions takes about 4 x 1 s: eight of them do not fit 10 s.
  FakeBench bench({1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700});
  bench.seconds_per_ms = 0.001;
  const HalvingResult r = halve(bench, 8, 10);
  EXPECT_TRUE(r.budget_spent);
  EXPECT_LE(bench.now, 10.0);
  EXPECT_LE(r.spent_s, 10.0);
  EXPECT_FALSE(r.unmeasured.empty());
  EXPECT_EQ(r.ranking.size() + r.unmeasured.size(), 8u);
  EXPECT_EQ(r.ranking[0].index, 0u);
}

TEST(Halving, StartsNoMeasurementThatCannotFinishInTheBudget) {
  // Round 1 takes 8 x ~4.05 s; the winner's round 2 would take twice its ~4 s, and 40 s leaves
  // about 7.6: no round-2 measurement starts, so no time is thrown away on a killed one.
  FakeBench bench({1000, 1010, 1020, 1030, 1040, 1050, 1060, 1070}, 0);
  bench.seconds_per_ms = 0.001;
  const HalvingResult r = halve(bench, 8, 40);
  EXPECT_TRUE(r.budget_spent);
  EXPECT_EQ(r.rounds, 2);
  for (const auto& [k, calls] : bench.calls)
    EXPECT_EQ(calls, 1) << "candidate " << k;
  EXPECT_EQ(bench.max_now, bench.now);  // the last call finished; none was cut off
  EXPECT_LE(bench.now, 40.0);
  EXPECT_EQ(r.ranking.size(), 8u);
  EXPECT_EQ(r.ranking[0].index, 0u);
}

TEST(Halving, DropsFailedCandidatesAndSaysWhy) {
  FakeBench bench({10, 5, 12, 11});
  bench.seconds_per_ms = 0.001;
  bench.failing = {1};  // the fastest, were it to run
  const HalvingResult r = halve(bench, 4, 100);
  ASSERT_EQ(r.failed.size(), 1u);
  EXPECT_EQ(r.failed[0].index, 1u);
  EXPECT_EQ(r.failed[0].error, "killed by signal SIGSEGV");
  EXPECT_EQ(bench.calls[1], 1);  // never measured again
  ASSERT_EQ(r.ranking.size(), 3u);
  EXPECT_EQ(r.ranking[0].index, 0u);
  for (const CandidateOutcome& c : r.ranking)
    EXPECT_NE(c.index, 1u);
}

TEST(Halving, EveryCandidateFailingLeavesNoWinner) {
  FakeBench bench({10, 11});
  bench.seconds_per_ms = 0.001;
  bench.failing = {0, 1};
  const HalvingResult r = halve(bench, 2, 100);
  EXPECT_TRUE(r.ranking.empty());
  EXPECT_EQ(r.failed.size(), 2u);
}

TEST(Halving, EqualCandidatesAreWithinNoise) {
  // Two candidates of the same time: the jitter alone decides their order.
  FakeBench bench({10, 10}, 0.5);
  bench.seconds_per_ms = 0.001;
  const HalvingResult r = halve(bench, 2, 100);
  ASSERT_EQ(r.ranking.size(), 2u);
  EXPECT_EQ(r.verdict.kind, Verdict::Kind::kWithinNoise) << r.verdict.text;
  EXPECT_NE(r.verdict.text.find("within noise"), std::string::npos);
  EXPECT_LT(r.verdict.p_fastest, 0.95);
}

TEST(Halving, OverlappingButShiftedTimesAreLikelyFastest) {
  std::vector<double> winner, runner_up;
  for (int i = 0; i < 12; ++i) {
    winner.push_back(10 + 0.01 * i);
    runner_up.push_back(11 + 0.01 * i);
  }
  winner.back() = 11.5;  // one slow repetition: the ranges overlap
  const Verdict v = compare(winner, runner_up);
  EXPECT_EQ(v.kind, Verdict::Kind::kLikely) << v.text;
  EXPECT_GE(v.p_fastest, 0.95);
  EXPECT_EQ(compare(runner_up, winner).kind, Verdict::Kind::kWithinNoise);
}

// Two candidates 0.5 % apart with a jitter of 5 %: round 1 cannot tell them apart; the budget
// left re-measures the two with more repetitions until the faster is likely the fastest.
TEST(Halving, SettlesTheLastTwoWithTheBudgetLeft) {
  FakeBench bench({10.05, 10}, 0.5);
  bench.seconds_per_ms = 0.001;
  HalvingOptions o;
  o.budget_s = 100;
  o.settle = false;
  const HalvingResult unsettled =
      successive_halving(2, o, std::ref(bench), [&] { return bench.now; });
  EXPECT_EQ(unsettled.verdict.kind, Verdict::Kind::kWithinNoise) << unsettled.verdict.text;
  FakeBench again({10.05, 10}, 0.5);
  again.seconds_per_ms = 0.001;
  const HalvingResult r = halve(again, 2, 100);
  EXPECT_EQ(r.ranking[0].index, 1u);
  EXPECT_NE(r.verdict.kind, Verdict::Kind::kWithinNoise) << r.verdict.text;
  EXPECT_GT(again.calls[0], 1);
  EXPECT_GT(r.ranking[0].times_ms.size(), 3u);
  EXPECT_LE(again.now, 100.0);
}

// Two equal candidates never settle: they are re-measured while the budget allows. With room
// asked for (recommend's yardstick), settling stops where a measurement as long as the winner's
// last still fits, whatever the budget.
TEST(Halving, SettlingLeavesRoomForOneMoreMeasurementWhenAsked) {
  for (int budget = 10; budget <= 40; budget += 3) {
    FakeBench bench({10, 10}, 0.5);
    bench.seconds_per_ms = 0.001;
    HalvingOptions o;
    o.budget_s = budget;
    o.room_after_settling = true;
    const HalvingResult r = successive_halving(2, o, std::ref(bench), [&] { return bench.now; });
    ASSERT_EQ(r.ranking.size(), 2u);
    // The winner's last measurement: half its pooled repetitions (they double), 10 ms each.
    const double winner_last =
        0.5 * static_cast<double>(r.ranking[0].times_ms.size()) * 10 * bench.seconds_per_ms;
    EXPECT_GE(budget - bench.now, winner_last) << "budget " << budget;
  }
}

// Screening: one look at each candidate, the slow ones stopped at 4x the best run so far (the
// first candidate, slow, runs whole: there is no best yet), the leaders those within 1.3x.
// The ranking follows the medians it reports: where the machine slowed the last round's winner,
// a candidate dropped in an earlier round with a lower median is measured again as far as the
// winner and takes first place; a round-2 candidate slower than round-1 ones is ranked after
// them.
TEST(Halving, MeasuresAgainACandidateWhoseMedianBeatsTheWinnersAndRanksByMedian) {
  // Round 1 (3 repetitions): 0 at 8 ms, 1 at 10, 2 at 11, 3 at 15: 0 and 1 go on. Round 2 (6):
  // 0 at 20, 1 at 14: 1 remains, slower than 2 was.
  std::map<size_t, int> calls;
  const auto measure = [&](size_t k, int repetitions, double) {
    const int call = ++calls[k];
    const double ms = k == 0   ? (call == 1 ? 8 : 20)
                      : k == 1 ? (call == 1 ? 10 : 14)
                      : k == 2 ? 11
                               : 15;
    return Measurement{Measurement::Status::kOk, std::vector<double>(repetitions, ms), ""};
  };
  HalvingOptions o;
  o.budget_s = 100;
  o.settle = false;
  double now = 0;
  const HalvingResult r = successive_halving(4, o, measure, [&] { return now += 0.1; });
  ASSERT_EQ(r.ranking.size(), 4u);
  EXPECT_EQ(r.ranking[0].index, 2u);
  EXPECT_EQ(calls[2], 2);  // measured again, up to the winner's 6 repetitions
  EXPECT_EQ(r.ranking[0].times_ms.size(), 6u);
  EXPECT_EQ(r.ranking[1].index, 1u);
  EXPECT_EQ(calls[3], 1);  // slower than the first: not measured again
  for (size_t k = 1; k < r.ranking.size(); ++k)
    EXPECT_LE(r.ranking[k - 1].spread.median, r.ranking[k].spread.median) << k;
  EXPECT_EQ(r.ranking[2].index, 3u);
  EXPECT_EQ(r.ranking[3].index, 0u);  // it reached round 2, at 20 ms
}

// A candidate stopped at its first look is looked at once more: one slow run (the machine's
// hiccup) does not drop it.
TEST(Screen, LooksOnceMoreAtAStoppedCandidate) {
  std::map<size_t, int> calls;
  const auto measure = [&](size_t k, double stop_after_ms, double) {
    const int call = ++calls[k];
    const double ms = k == 1 && call == 1 ? 500 : k == 2 ? 900 : 1 + 0.05 * static_cast<double>(k);
    if (stop_after_ms > 0 && ms > stop_after_ms)
      return Measurement{Measurement::Status::kStopped, {}, "stopped"};
    return Measurement{Measurement::Status::kOk, {ms}, ""};
  };
  double now = 0;
  const ScreenResult s = screen(4, ScreenOptions{}, measure, [&] { return now += 0.01; });
  EXPECT_EQ(calls[1], 2);
  EXPECT_EQ(calls[2], 2);
  ASSERT_EQ(s.stopped.size(), 1u);
  EXPECT_EQ(s.stopped[0].index, 2u);
  EXPECT_EQ(s.screened.size(), 3u);
  EXPECT_EQ(s.leaders, (std::vector<size_t>{0, 1, 3}));
}

TEST(Screen, StopsSlowCandidatesAndPicksTheLeaders) {
  FakeBench bench({50, 1, 2, 1.1, 200, 0.95}, 0);
  bench.seconds_per_ms = 0.001;
  const ScreenResult s = screen(
      6, ScreenOptions{},
      [&](size_t k, double stop, double deadline) { return bench.screen(k, stop, deadline); },
      [&] { return bench.now; });
  ASSERT_EQ(s.stopped.size(), 1u);
  EXPECT_EQ(s.stopped[0].index, 4u);
  EXPECT_EQ(s.screened.size(), 5u);
  EXPECT_EQ(s.leaders, (std::vector<size_t>{5, 1, 3}));
  for (const auto& [k, calls] : bench.calls)
    EXPECT_EQ(calls, k == 4 ? 2 : 1) << "candidate " << k;
  // The 200 ms candidate cost two starts and stops at 4 ms (0.108 s), not its runs (0.45 s).
  EXPECT_LT(bench.now, 0.5);
}

TEST(Screen, StopsAtTheBudgetAndNamesTheUnmeasured) {
  FakeBench bench({1000, 1000, 1000, 1000}, 0);
  bench.seconds_per_ms = 0.001;
  ScreenOptions o;
  o.budget_s = 4.5;
  const ScreenResult s = screen(
      4, o, [&](size_t k, double stop, double deadline) { return bench.screen(k, stop, deadline); },
      [&] { return bench.now; });
  EXPECT_TRUE(s.budget_spent);
  EXPECT_FALSE(s.unmeasured.empty());
  EXPECT_EQ(s.screened.size() + s.unmeasured.size(), 4u);
  EXPECT_LE(bench.now, 4.5);
}

// Where the screening spends the budget, the halving measures no leader again: the leaders then
// compete with their screening, ahead of the slower candidates that were not leaders, so that the
// winner is the fastest the screening measured, never one slower than a leader.
TEST(Halving, LeadersTheBudgetDidNotReachRankByTheirScreening) {
  ScreenResult s;
  const auto screened = [](size_t index, double ms) {
    CandidateOutcome c;
    c.index = index;
    c.times_ms = {ms};
    c.spread = spread_of(c.times_ms);
    return c;
  };
  s.screened = {screened(5, 9.0), screened(2, 10.0), screened(7, 12.0), screened(1, 30.0)};
  s.leaders = {5, 2};
  s.budget_spent = true;
  HalvingResult h;  // over the two leaders: neither measured again
  h.unmeasured = {0, 1};
  h.budget_spent = true;
  const HalvingResult joined = with_screening(h, s);
  ASSERT_EQ(joined.ranking.size(), 4u);
  EXPECT_EQ(joined.ranking[0].index, 5u);
  EXPECT_EQ(joined.ranking[1].index, 2u);
  EXPECT_EQ(joined.ranking[2].index, 7u);
  EXPECT_EQ(joined.ranking[3].index, 1u);
  EXPECT_TRUE(joined.unmeasured.empty());
  EXPECT_NE(joined.verdict.kind, Verdict::Kind::kAlone);
}

TEST(Halving, SpreadGivesMedianQuartilesAndRange) {
  const Spread s = spread_of({5, 1, 4, 2, 3});
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.q1, 2);
  EXPECT_EQ(s.q3, 4);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 5);
}

// The workload of the CLI tests: small, on the CPU engines, so that CI runs it anywhere.
std::vector<std::string> recommend_args(const std::string& out) {
  return {"recommend",
          "--sim",
          "mvp",
          "--init-n",
          "200",
          "--steps",
          "50",
          "--split-chance",
          "2",
          "--schedulers",
          "cpu-serial,cpu-openmp",
          "--budget",
          "60",
          "--out",
          out};
}

TEST(Recommend, RanksTheCpuEnginesWritesResultsAndARunCommandThatRuns) {
  TempDir dir;
  const std::string out = dir.path("rec.json");
  const Outcome o = schedbench(dir, recommend_args(out));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.err.find("screened 2 of 2 candidates"), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("in 1 process(es)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("median ms"), std::string::npos) << o.out;
  const json r = read_json(out);
  EXPECT_EQ(r["schema"], "schedbench.job/1");
  EXPECT_EQ(r["job"]["name"], "recommend-mvp");
  ASSERT_EQ(r["points"].size(), 2u);
  for (const json& p : r["points"])
    EXPECT_EQ(p["status"], "ok") << p.dump();
  const json& rec = r["recommend"];
  ASSERT_EQ(rec["ranking"].size(), 2u);
  EXPECT_EQ(rec["rounds"], 1);
  EXPECT_EQ(rec["winner"], rec["ranking"][0]["label"]);
  EXPECT_LE(rec["ranking"][0]["median_ms"].get<double>(),
            rec["ranking"][1]["median_ms"].get<double>());
  EXPECT_DOUBLE_EQ(rec["ranking"][0]["relative"].get<double>(), 1.0);
  const std::string kind = rec["verdict"]["kind"];
  EXPECT_TRUE(kind == "separated" || kind == "likely" || kind == "within-noise") << kind;

  // The printed command runs the winner and computes what the winner's point measured.
  const size_t at = o.out.find("run it: ");
  ASSERT_NE(at, std::string::npos) << o.out;
  const std::string line = o.out.substr(at + 8, o.out.find('\n', at) - at - 8);
  EXPECT_EQ(line, rec["run_command"].get<std::string>());
  std::vector<std::string> args = command_words(line);
  ASSERT_GE(args.size(), 2u);
  EXPECT_EQ(args[1], "run");
  args.erase(args.begin());
  const std::string single = dir.path("single.json");
  args.insert(args.end(), {"--json", single});
  const Outcome run = schedbench(dir, args);
  ASSERT_EQ(run.exit_code, 0) << line << "\n" << run.err;
  const json ran = read_json(single);
  EXPECT_EQ(ran["config"]["scheduler"], r["points"][0]["label"] == rec["winner"]
                                            ? r["points"][0]["config"]["scheduler"]
                                            : r["points"][1]["config"]["scheduler"]);
  for (const json& p : r["points"]) {
    EXPECT_EQ(p["digest"], ran["result"]["digest"]);  // every engine gives the same digest
  }
}

// recommend's runner serves points one after another (--serve, a line per point): this one runs
// `openmp` (a shell command, $request the request file) on cpu-openmp's requests, then passes
// each line to a real runner of its own.
Outcome recommend_through(const TempDir& dir, const std::string& openmp) {
  std::string loop = R"SH(set -u
while IFS= read -r line; do
  request=$(printf '%s' "$line" | sed 's/.*"request":"\([^"]*\)".*/\1/')
  if grep -q '"scheduler": "cpu-openmp"' "$request"; then OPENMP; fi
  printf '%s\n' "$line" | "$1" --serve
done
)SH";
  loop.replace(loop.find("OPENMP"), 6, openmp);
  const std::string script = dir.write("runner.sh", loop);
  std::vector<std::string> args = recommend_args(dir.path("rec.json"));
  args.insert(args.end(),
              {"--runner", std::string("/bin/sh ") + script + " " + SCHEDBENCH_POINT_EXE});
  return schedbench(dir, args);
}

// A difference planted in the work, not left to the machine's timing: cpu-openmp's runs are made
// 100 times as long (20 000 particles instead of 200), so no noise reverses the ranking, and the
// ranking follows the medians it prints.
TEST(Recommend, RanksAPlantedSlowerCandidateAfterTheFasterOne) {
  TempDir dir;
  const Outcome o =
      recommend_through(dir, R"(sed -i 's/"init_n": 200\b/"init_n": 20000/' "$request")");
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json rec = read_json(dir.path("rec.json"))["recommend"];
  EXPECT_EQ(rec["winner"], "mvp__cpu-serial");
  ASSERT_EQ(rec["ranking"].size(), 2u);
  EXPECT_EQ(rec["ranking"][1]["label"], "mvp__cpu-openmp");
  EXPECT_LE(rec["ranking"][0]["median_ms"].get<double>(),
            rec["ranking"][1]["median_ms"].get<double>());
}

// The runner crashes at cpu-openmp's point.
TEST(Recommend, DropsACandidateThatCrashesAndRecommendsAnother) {
  TempDir dir;
  const Outcome o = recommend_through(dir, "kill -SEGV $$");
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json r = read_json(dir.path("rec.json"));
  EXPECT_EQ(r["recommend"]["winner"], "mvp__cpu-serial");
  ASSERT_EQ(r["recommend"]["failed"].size(), 1u);
  EXPECT_EQ(r["recommend"]["failed"][0]["label"], "mvp__cpu-openmp");
  EXPECT_NE(r["recommend"]["failed"][0]["error"].get<std::string>().find("SIGSEGV"),
            std::string::npos);
  EXPECT_NE(o.out.find("failed: mvp__cpu-openmp"), std::string::npos) << o.out;
  EXPECT_EQ(r["recommend"]["verdict"]["kind"], "alone");
}

TEST(Recommend, RefusesBadInputInOneLineAndWritesNothing) {
  TempDir dir;
  const std::string out = dir.path("rec.json");
  const auto with = [&](const std::string& option, const std::string& value) {
    std::vector<std::string> args = recommend_args(out);
    for (size_t k = 0; k + 1 < args.size(); ++k) {
      if (args[k] == option) {
        args[k + 1] = value;
        return args;
      }
    }
    args.insert(args.end(), {option, value});
    return args;
  };
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {with("--budget", "0"), "--budget: '0'"},
      {with("--budget", "-5"), "--budget: '-5'"},
      {with("--budget", "0x10"), "--budget: '0x10'"},
      {with("--budget", "ten"), "--budget: 'ten'"},
      {with("--schedulers", "cpu-serial,warp-drive"), "warp-drive"},
      {with("--schedulers", "bound"), "yardstick"},
      {with("--schedulers", "cpu-serial,cpu-serial"), "named twice"},
      {with("--block-sizes", "128,100"), "--block-sizes: '100'"},
      {with("--block-sizes", "128,,256"), "--block-sizes"},
      {with("--block-sizes", "128,256,"), "--block-sizes: ''"},
      {with("--schedulers", "cpu-serial,"), "--schedulers: '' is not a scheduler"},
      // Its candidates run in a point process that no launcher starts: one rank.
      {with("--ranks", "2"), "--ranks: 2; recommend measures each candidate on one rank"},
      {with("--init-n", "many"), "--init-n"},
  };
  for (const auto& [args, expected] : cases) {
    const Outcome o = schedbench(dir, args);
    EXPECT_EQ(o.exit_code, 2) << expected << ": " << o.out << o.err;
    EXPECT_NE(o.err.find(expected), std::string::npos) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << expected;
  }
}

TEST(Recommend, RefusesToReplaceAResultsFileWithoutOverwrite) {
  TempDir dir;
  const std::string out = dir.write("rec.json", "{}\n");
  const Outcome o = schedbench(dir, recommend_args(out));
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("--overwrite"), std::string::npos) << o.err;
  std::vector<std::string> args = recommend_args(out);
  args.push_back("--overwrite");
  EXPECT_EQ(schedbench(dir, args).exit_code, 0);
}

// --all-policies: a scheduler with tuning policies is a candidate once per named policy (per
// block size), one without them once; listing candidates runs nothing, so no GPU is needed.
TEST(Recommend, AllPoliciesMultipliesOnlyTheSchedulersThatHavePolicies) {
  RecommendRequest r;
  r.workload.sim = "mvp";
  r.workload.init_n = 1000;
  sb::steps_parameter().set(r.workload, 10);
  r.given = {"init_n", "steps"};
  r.schedulers = {"dynamic-warp", "naive"};
  r.axes = {{"block_size", "--block-sizes", {"128", "256"}}};
  r.have_gpu = true;
  r.all_policies = true;
  const std::vector<JobPoint> candidates = recommend_candidates(r);
  const size_t policies = find_scheduler("dynamic-warp").policies.named.size();
  ASSERT_GE(policies, 2u);
  EXPECT_EQ(candidates.size(), 2 * policies + 2);
  std::set<std::string> seen;
  const DeclaredParameter& policy = find_scheduler("dynamic-warp").policies.parameter;
  for (const JobPoint& c : candidates) {
    if (c.config.scheduler == "dynamic-warp") seen.insert(policy.text(c.config));
    if (c.config.scheduler == "naive") {
      EXPECT_FALSE(policy.given(c.config));
    }
  }
  EXPECT_EQ(seen.size(), policies);
  EXPECT_EQ(seen.count("default"), 0u);
}

}  // namespace
}  // namespace sb
