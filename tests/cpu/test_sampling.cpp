// How a point is measured: the median's distribution-free interval against binomial tables, the
// stopping rule (a fixed count, the least samples and time, the noise, the most time), the
// measurement that follows it (harness/bench/timing.hpp), the summary's formats, and a sweep's
// sampling options, axis edits and filters as a user gives them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "harness/bench/sampling.hpp"
#include "harness/bench/statistics.hpp"
#include "harness/bench/timing.hpp"
#include "harness/io/text_table.hpp"
#include "harness/job/job.hpp"
#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

using testing_support::line_containing;
using testing_support::Outcome;
using testing_support::read_json;
using testing_support::schedbench;
using testing_support::seed_job;
using testing_support::TempDir;

std::vector<double> one_to(int n) {
  std::vector<double> v;
  for (int i = n; i >= 1; --i)
    v.push_back(i);  // unsorted on purpose
  return v;
}

// Published order-statistic intervals of the median (e.g. Conover, Practical Nonparametric
// Statistics, table A3): n = 20 gives x(6)..x(15) at 95.9 %; n = 10 gives x(2)..x(9) at 97.9 %.
// A resample's median drawn from its order statistics has the distribution of the median of a
// resample drawn whole (n draws with replacement, sorted): each value's frequency over 40,000
// draws agrees with the brute force's within 0.015 (five standard errors), for odd and even n.
TEST(Bootstrap, AResampledMedianHasTheDistributionOfAWholeResample) {
  for (const size_t n : {1u, 2u, 7u, 8u}) {
    std::vector<double> sorted;
    for (size_t i = 0; i < n; ++i)
      sorted.push_back(static_cast<double>(i + 1) * static_cast<double>(i + 1));
    std::mt19937 rng(7), brute_rng(8);
    std::uniform_int_distribution<size_t> pick(0, n - 1);
    std::map<double, double> drawn, brute;
    const int draws = 40000;
    for (int k = 0; k < draws; ++k) {
      drawn[median_of_resample(sorted, rng)] += 1.0 / draws;
      std::vector<double> resample(n);
      for (double& x : resample)
        x = sorted[pick(brute_rng)];
      std::sort(resample.begin(), resample.end());
      brute[quantile(resample, 0.5)] += 1.0 / draws;
    }
    for (const auto& [value, p] : brute)
      EXPECT_NEAR(drawn[value], p, 0.015) << "n " << n << ", median " << value;
    for (const auto& [value, p] : drawn)
      EXPECT_GT(brute.count(value), 0u) << "n " << n << ": " << value << " drawn, never resampled";
  }
}

TEST(MedianInterval, MatchesTheBinomialTables) {
  MedianInterval m = median_interval(one_to(20));
  EXPECT_EQ(m.lo, 6);
  EXPECT_EQ(m.hi, 15);
  EXPECT_NEAR(m.level, 0.9586, 1e-4);
  m = median_interval(one_to(10));
  EXPECT_EQ(m.lo, 2);
  EXPECT_EQ(m.hi, 9);
  EXPECT_NEAR(m.level, 0.9785, 1e-4);
}

TEST(MedianInterval, BelowSixSamplesIsTheRangeAtItsLowerLevel) {
  const MedianInterval m = median_interval(one_to(5));
  EXPECT_EQ(m.lo, 1);
  EXPECT_EQ(m.hi, 5);
  EXPECT_DOUBLE_EQ(m.level, 1 - 2.0 / 32);
}

TEST(TimingStats, NoiseIsTheIntervalsFartherEndOverTheMedian) {
  const TimingStats t = timing_stats({10, 10.2, 9.9, 10.1, 9.6, 10, 10.3});
  EXPECT_DOUBLE_EQ(t.median, 10);
  EXPECT_DOUBLE_EQ(t.interval.lo, 9.6);
  EXPECT_DOUBLE_EQ(t.interval.hi, 10.3);
  EXPECT_NEAR(t.noise, 0.04, 1e-12);
  EXPECT_EQ(t.samples, 7u);
  EXPECT_GT(t.cv, 0);
}

TEST(Sampling, AFixedCountIsExactlyThat) {
  Sampling s;
  s.repetitions = 3;
  EXPECT_FALSE(enough_samples(s, {1, 50}, 100));
  EXPECT_TRUE(enough_samples(s, {1, 50, 1000}, 0));
}

TEST(Sampling, TheRuleWaitsForTheLeastThenTheNoiseOrTheMostTime) {
  Sampling s;
  s.min_samples = 6;
  s.max_noise_pct = 2;
  s.max_time_s = 1;
  const std::vector<double> quiet = {10, 10.01, 9.99, 10.02, 9.98, 10};
  EXPECT_FALSE(enough_samples(s, {10, 10, 10, 10, 10}, 0.05));
  EXPECT_TRUE(enough_samples(s, quiet, 0.06));
  const std::vector<double> noisy_times = {10, 20, 5, 15, 10, 30};
  EXPECT_FALSE(enough_samples(s, noisy_times, 0.09));
  EXPECT_TRUE(noisy(s, noisy_times));
  std::vector<double> long_noisy = noisy_times;
  long_noisy.push_back(1000);  // past max_time_s: stop, noisy as it is
  EXPECT_TRUE(enough_samples(s, long_noisy, 1.09));
  s.min_time_s = 0.5;  // 60 ms spent of the 500 asked for
  EXPECT_FALSE(enough_samples(s, quiet, 0.06));
}

// The time limits count wall time, not the timed parts alone: runs of 10 ms that cost a second of
// wall time each (their setup, the timing layer) reach a most time of 5 s after 5 of them, and a
// least time of 5 s once 5 s of wall time have passed.
TEST(Sampling, TheTimeLimitsCountWallTimeBetweenRepetitions) {
  Sampling s;
  s.min_samples = 3;
  s.max_time_s = 5;
  const std::vector<double> noisy_times = {10, 20, 5, 15, 10, 30};
  EXPECT_TRUE(enough_samples(s, noisy_times, 6));
  EXPECT_FALSE(enough_samples(s, noisy_times, 4));
  s.min_time_s = 5;
  const std::vector<double> quiet = {10, 10.01, 9.99, 10.02, 9.98, 10};
  EXPECT_FALSE(enough_samples(s, quiet, 4));
  EXPECT_TRUE(enough_samples(s, quiet, 6));
}

// A next batch fills at most half the most time left at the wall-time rate so far: 6 runs in 3 s
// (0.5 s each, whatever their timed part) leave 2 s before a most time of 5 s, half of it for 2;
// short of a least time, as many as reach it at that rate; otherwise half as many again.
TEST(Sampling, TheNextBatchFitsTheWallTimeLeft) {
  Sampling s;
  s.max_time_s = 5;
  EXPECT_EQ(next_batch(s, 6, 3), 2);
  EXPECT_EQ(next_batch(s, 12, 3), 4);
  EXPECT_EQ(next_batch(s, 40, 4), 5);
  EXPECT_EQ(next_batch(s, 40, 4.9), 1);
  EXPECT_EQ(next_batch(s, 4, 0.5), 2);
  s.min_time_s = 4;
  EXPECT_EQ(next_batch(s, 6, 3), 2);
  s.max_time_s = 100;
  EXPECT_EQ(next_batch(s, 8, 1), 25);
  EXPECT_EQ(next_batch(s, 6, 200), 3);  // past the most time: the caller stops, not this
}

// A repetition that sets the times of `times` in turn (cycling), and advances a wall clock of
// its own (`clock_s`, seconds) by that time and `overhead_ms` more.
struct Scripted {
  std::vector<double> times;
  double overhead_ms = 0;
  size_t calls = 0;
  double clock_s = 0;
  void operator()(Repetition& rep) {
    const double t = times[calls++ % times.size()];
    rep.time_ms = t;
    rep.counters["twice"] = 2 * t;
    clock_s += (t + overhead_ms) * 1e-3;
  }
  std::function<double()> clock() {
    return [this] { return clock_s; };
  }
};

TEST(Sampling, TimeSampledStopsWhenQuietAndGoesOnWhileNoisy) {
  Sampling s;
  s.min_samples = 6;
  Scripted quiet{{10, 10.01, 9.99}};
  TimedRepetitions t = time_sampled(s, std::ref(quiet), quiet.clock());
  EXPECT_EQ(t.times_ms.size(), 6u);
  EXPECT_NEAR(t.counters().at("twice"), 20, 0.05);
  EXPECT_NEAR(t.stats()["median_ms"].get<double>(), 10, 0.02);

  // Every third run twice as long: the median's interval needs many samples to narrow, and the
  // most time (here 0.3 s) ends it first.
  s.max_time_s = 0.3;
  Scripted noisy_runs{{10, 10.5, 20, 9.5, 30}};
  t = time_sampled(s, std::ref(noisy_runs), noisy_runs.clock());
  EXPECT_GT(t.times_ms.size(), 6u);
  EXPECT_GE(noisy_runs.clock_s, 0.3);
  // A batch is sized by the mean run: it may pass the most time by a few runs, not by half.
  EXPECT_LT(noisy_runs.clock_s, 0.4);

  // The same runs with 90 ms of wall time each besides their timed part: the most time is wall
  // time, and three runs fill it.
  s.min_samples = 2;
  Scripted slow_setup{{10, 10.5, 20, 9.5, 30}, 90};
  t = time_sampled(s, std::ref(slow_setup), slow_setup.clock());
  EXPECT_EQ(t.times_ms.size(), slow_setup.calls);
  EXPECT_GE(slow_setup.clock_s, 0.3);
  EXPECT_LT(slow_setup.clock_s, 0.4);
  EXPECT_LE(t.times_ms.size(), 4u);
}

TEST(TextTable, WritesMarkdownCsvAndJson) {
  TextTable t({"name", "ms", "digest"});
  t.add_row({"a, \"quoted\"", "1.5", "0x00ff"});
  t.add_row({"b", "", "0x0100"});
  EXPECT_EQ(t.markdown(),
            "| name | ms | digest |\n| --- | --- | --- |\n| a, \"quoted\" | 1.5 | 0x00ff |\n"
            "| b |  | 0x0100 |\n");
  EXPECT_EQ(t.csv(), "name,ms,digest\n\"a, \"\"quoted\"\"\",1.5,0x00ff\nb,,0x0100\n");
  const nlohmann::json j = nlohmann::json::parse(t.json());
  EXPECT_EQ(j[0]["ms"], 1.5);
  EXPECT_EQ(j[0]["digest"], "0x00ff");  // a digest stays text
  EXPECT_FALSE(j[1].contains("ms"));    // an empty cell is left out, never null
}

// A cell that holds a bar or a line break stays one Markdown cell of one row; a whole number
// beyond a double's 53 bits (the largest seed) stays exact in JSON.
TEST(TextTable, KeepsCellsWholeInMarkdownAndJson) {
  TextTable t({"label", "seed"});
  t.add_row({"a|b\nc\r\nd", "18446744073709551615"});
  t.add_row({"e", "-9007199254740993"});
  EXPECT_EQ(t.markdown(),
            "| label | seed |\n| --- | --- |\n| a\\|b<br>c<br>d | 18446744073709551615 |\n"
            "| e | -9007199254740993 |\n");
  const nlohmann::json j = nlohmann::json::parse(t.json());
  EXPECT_EQ(j[0]["seed"].get<uint64_t>(), UINT64_MAX);
  EXPECT_EQ(j[1]["seed"].get<int64_t>(), -9007199254740993);
}

TEST(AxisEdit, ReadsListsWordsAndJson) {
  auto [key, v] = parse_axis_edit("-a", "block_size=32,64");
  EXPECT_EQ(key, "block_size");
  EXPECT_EQ(v, nlohmann::ordered_json::parse("[32, 64]"));
  std::tie(key, v) = parse_axis_edit("-a", "scheduler=dynamic-warp,naive");
  EXPECT_EQ(v, nlohmann::ordered_json::parse(R"(["dynamic-warp", "naive"])"));
  std::tie(key, v) = parse_axis_edit("-a", R"(init_n={"log": [1000, 100000], "points": 3})");
  EXPECT_EQ(v["points"], 3);
  std::tie(key, v) = parse_axis_edit("-a", "seed=5");
  EXPECT_EQ(v, 5);
  for (const char* bad : {"block_size", "=5", "block_size=", "sheduler=naive", "seed=[1,"})
    EXPECT_THROW(parse_axis_edit("-a", bad), UsageError) << bad;
}

// A job of 2 seeds swept with a third seed and a filter: the filter picks by label, labels are
// the whole job's, and the sampling options reach the points.
TEST(SweepOptions, AxisEditsFiltersSamplingAndFormats) {
  TempDir dir;
  const std::string job = seed_job(dir, "[1, 2]");
  const std::string out = dir.path("r.json");
  const Outcome o = schedbench(
      dir, {"sweep", job, "--out", out, "-a", "seed=1,2,3", "--filter", "seed-[23]$",
            "--min-samples", "4", "--max-time", "0", "--max-noise", "0", "--format", "csv"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json r = read_json(out);
  ASSERT_EQ(r["points"].size(), 2u);
  EXPECT_EQ(r["points"][0]["label"], "mvp__cpu-serial__seed-2");
  EXPECT_EQ(r["points"][1]["label"], "mvp__cpu-serial__seed-3");
  EXPECT_EQ(r["job"]["sampling"]["min_samples"], 4);
  for (const auto& p : r["points"]) {
    // At most 0 s and 0 % noise: the least samples, and noisy (no CPU times are all equal).
    EXPECT_EQ(p["repetitions_ms"].size(), 4u);
    EXPECT_EQ(p["noisy"], true);
    EXPECT_LE(p["stats"]["median_lo_ms"], p["stats"]["median_ms"]);
    EXPECT_GE(p["stats"]["median_hi_ms"], p["stats"]["median_ms"]);
  }
  const std::string row = line_containing(o.out, "mvp,cpu-serial,3,");
  EXPECT_NE(row, "") << o.out;
  EXPECT_NE(row.find(",noisy"), std::string::npos) << row;
  EXPECT_NE(o.out.find("sim,scheduler,seed,final,"), std::string::npos) << o.out;
}

TEST(Sampling, VisitsShareTheCountsAndTimes) {
  Sampling s;
  s.repetitions = 7;
  s.min_samples = 6;
  s.max_time_s = 9;
  int repetitions = 0, samples = 0;
  for (int v = 0; v < 3; ++v) {
    repetitions += visit_share(s, 3, v).repetitions;
    samples += visit_share(s, 3, v).min_samples;
    EXPECT_DOUBLE_EQ(visit_share(s, 3, v).max_time_s, 3);
    EXPECT_EQ(visit_share(s, 3, v).max_noise_pct, s.max_noise_pct);
  }
  EXPECT_EQ(repetitions, 7);
  EXPECT_EQ(samples, 6);
  EXPECT_EQ(visit_share(s, 10, 0).min_samples, 1);  // at least one each
}

// --interleave 3: each point measured in 3 visits (9 point processes, in the seed's order),
// joined into one record of all their repetitions; the same seed gives the same order.
TEST(SweepOptions, InterleavedVisitsJoinIntoOneRecordPerPoint) {
  TempDir dir;
  const std::string job = seed_job(dir, "[1, 2, 3]", 6);
  const auto sweep = [&](const std::string& out, const std::string& seed) {
    const Outcome o = schedbench(
        dir, {"sweep", job, "--out", dir.path(out), "--interleave", "3", "--order-seed", seed});
    EXPECT_EQ(o.exit_code, 0) << o.err;
    return o.out;
  };
  const std::string first = sweep("a.json", "7");
  const nlohmann::json r = read_json(dir.path("a.json"));
  ASSERT_EQ(r["points"].size(), 3u);
  for (const auto& p : r["points"]) {
    EXPECT_EQ(p["status"], "ok") << p;
    EXPECT_EQ(p["visits"], 3);
    EXPECT_EQ(p["repetitions_ms"].size(), 6u);
    EXPECT_EQ(p["stats"]["samples"], 6);
  }
  EXPECT_NE(first.find("[visit 3/3]"), std::string::npos) << first;
  // The order of the visits, by the lines of the finished ones.
  const auto order = [](const std::string& out) {
    std::string names;
    for (size_t at = out.find("] mvp__"); at != std::string::npos; at = out.find("] mvp__", at + 1))
      names += out.substr(at, out.find("  ", at) - at) + "\n";
    return names;
  };
  EXPECT_EQ(order(first), order(sweep("b.json", "7")));
  EXPECT_NE(order(first), order(sweep("c.json", "8")));
}

// Each visit runs at least one repetition: more visits than a fixed count of repetitions would
// record more runs than asked, and are refused.
TEST(SweepOptions, MoreVisitsThanRepetitionsAreRefused) {
  TempDir dir;
  const Outcome o = schedbench(dir, {"sweep", seed_job(dir, "[1]"), "--out", dir.path("r.json"),
                                     "--interleave", "4", "--repetitions", "1"});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(o.err,
            "schedbench: error: --interleave: 4 visits cannot share 1 repetition(s), each visit "
            "running at least one; accepted: --interleave at most 1, or at least 4 repetitions "
            "(--repetitions, or the job's)\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path("r.json")));
}

TEST(SweepOptions, BadValuesAreOneLineExitTwoAndNothingWritten) {
  TempDir dir;
  const std::string job = seed_job(dir, "[1, 2]");
  const std::vector<std::vector<std::string>> bad = {{"-a", "sheduler=naive"},
                                                     {"-a", "seed"},
                                                     {"--filter", "seed-9"},
                                                     {"--filter", "seed-("},
                                                     {"--repetitions", "0"},
                                                     {"--repetitions", "3", "--max-noise", "1"},
                                                     {"--min-time", "5", "--max-time", "1"},
                                                     {"--max-noise", "-1"},
                                                     {"--format", "xml"},
                                                     {"--interleave", "0"},
                                                     {"--order-seed", "3"}};
  for (const auto& args : bad) {
    std::vector<std::string> argv = {"sweep", job, "--out", dir.path("r.json")};
    argv.insert(argv.end(), args.begin(), args.end());
    const Outcome o = schedbench(dir, argv);
    EXPECT_EQ(o.exit_code, 2) << args[0] << " " << args[1] << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path("r.json"))) << args[0];
  }
}

}  // namespace
}  // namespace sb
