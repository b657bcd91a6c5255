// schedbench compare on quiet measurements: the same file against itself is the same everywhere;
// a copy 10 % slower in every repetition is slower everywhere and fails --fail-if-slower 5 (exit
// 4) but not 20; a changed digest is named and fails it too; the three formats; bad input is one
// line, exit 2. Noisy measurements of three repetitions are, honestly, "unsure". A noise floor
// calibrated on an A/A pair widens what counts as a difference; a floor file that does not fit
// is bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

using testing_support::Outcome;
using testing_support::read_json;
using testing_support::schedbench;
using testing_support::seed_job;
using testing_support::TempDir;

// A real results file of four CPU points whose times are set to a quiet measurement's (five
// repetitions within 0.2 %, as on a quiet GPU), and a copy with every time scaled by `factor`.
struct Pair {
  TempDir dir;
  std::string a = dir.path("a.json"), b = dir.path("b.json");
  explicit Pair(double factor) {
    const Outcome o = schedbench(dir, {"sweep", seed_job(dir, "[1, 2, 3, 4]", 1), "--out", a});
    EXPECT_EQ(o.exit_code, 0) << o.err;
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(testing_support::slurp(a));
    double base = 10;
    for (auto& p : doc["points"]) {
      p["repetitions_ms"] = {base * 0.999, base * 1.001, base, base * 0.998, base * 1.002};
      p["stats"]["median_ms"] = base;
      base *= 1.7;
    }
    dir.write("a.json", doc.dump(2));
    for (auto& p : doc["points"]) {
      for (auto& t : p["repetitions_ms"])
        t = t.get<double>() * factor;
      p["stats"]["median_ms"] = p["stats"]["median_ms"].get<double>() * factor;
    }
    dir.write("b.json", doc.dump(2));
  }
};

TEST(Compare, AFileAgainstItselfIsTheSameEverywhere) {
  Pair p(1.0);
  const Outcome o = schedbench(p.dir, {"compare", p.a, p.b, "--fail-if-slower", "0"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("4 points in both (0 only in A, 0 only in B); B/A geometric mean 1.000 "
                       "(+0.0%); faster 0, slower 0, same 4, unsure 0, noisy 0; digest changes 0"),
            std::string::npos)
      << o.out;
}

TEST(Compare, TenPercentSlowerIsFoundAndFailsTheGate) {
  Pair p(1.1);
  const Outcome o = schedbench(p.dir, {"compare", p.a, p.b, "--format", "json"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["schema"], "schedbench.compare/1");
  ASSERT_EQ(j["points"].size(), 4u);
  for (const auto& point : j["points"]) {
    EXPECT_EQ(point["verdict"], "slower") << point.dump();
    EXPECT_NEAR(point["ratio"].get<double>(), 1.1, 1e-9);
  }
  EXPECT_NEAR(j["geometric_mean"].get<double>(), 1.1, 1e-9);
  const Outcome gate = schedbench(p.dir, {"compare", p.a, p.b, "--fail-if-slower", "5"});
  EXPECT_EQ(gate.exit_code, 4) << gate.err;
  EXPECT_NE(gate.err.find("slower by 10.0%"), std::string::npos) << gate.err;
  EXPECT_EQ(schedbench(p.dir, {"compare", p.a, p.b, "--fail-if-slower", "20"}).exit_code, 0);
  const Outcome faster = schedbench(p.dir, {"compare", p.b, p.a, "--format", "md"});
  EXPECT_NE(faster.out.find("| --- |"), std::string::npos) << faster.out;
  EXPECT_NE(faster.out.find("faster 4, slower 0"), std::string::npos) << faster.out;
}

// A point either file marks noisy gets no faster or slower verdict, and the gate passes it: the
// repetitions of one sweep do not show the drift between two.
TEST(Compare, APointNoisyInEitherFileGetsNoFasterOrSlowerVerdict) {
  Pair p(1.3);
  nlohmann::ordered_json b = nlohmann::ordered_json::parse(testing_support::slurp(p.b));
  b["points"][0]["noisy"] = true;
  p.dir.write("b.json", b.dump(2));
  const Outcome o = schedbench(p.dir, {"compare", p.a, p.b, "--format", "json"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  ASSERT_EQ(j["points"].size(), 4u);
  int noisy = 0, slower = 0;
  for (const auto& point : j["points"]) {
    noisy += point["verdict"] == "noisy" ? 1 : 0;
    slower += point["verdict"] == "slower" ? 1 : 0;
  }
  EXPECT_EQ(noisy, 1);
  EXPECT_EQ(slower, 3);
  const Outcome text = schedbench(p.dir, {"compare", p.b, p.a});
  EXPECT_NE(text.out.find("faster 3, slower 0, same 0, unsure 0, noisy 1"), std::string::npos)
      << text.out;
  // The gate still fails on the three quiet points; with the noisy one alone it passes.
  EXPECT_EQ(schedbench(p.dir, {"compare", p.a, p.b, "--fail-if-slower", "5"}).exit_code, 4);
  for (size_t k = 1; k < b["points"].size(); ++k)
    b["points"][k]["noisy"] = true;
  p.dir.write("b.json", b.dump(2));
  const Outcome gate = schedbench(p.dir, {"compare", p.a, p.b, "--fail-if-slower", "5"});
  EXPECT_EQ(gate.exit_code, 0) << gate.err;
}

TEST(Compare, AChangedDigestIsACorrectnessChange) {
  Pair p(1.0);
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(testing_support::slurp(p.b));
  doc["points"][2]["digest"] = "0x0000000000000001";
  doc["points"].erase(3);
  p.dir.write("b.json", doc.dump(2));
  const Outcome o = schedbench(p.dir, {"compare", p.a, p.b, "--fail-if-slower", "5"});
  EXPECT_EQ(o.exit_code, 4) << o.err;
  EXPECT_NE(o.out.find("same DIGEST CHANGED"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("3 points in both (1 only in A, 0 only in B)"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("its digest changed"), std::string::npos) << o.err;
}

// Within one file: each scheduler's points against the baseline scheduler's of the same workload
// (the schedulers' own parameters aside); schedulers agree on every digest.
TEST(Compare, ByASchedulerWithinOneFile) {
  TempDir dir;
  const std::string job = dir.write("job.json", R"({"sims": ["mvp"],
    "schedulers": ["cpu-serial", "cpu-openmp"], "repetitions": 3, "warmup": 0,
    "axes": {"init_n": 300, "steps": 40, "split_chance": 2, "seed": [1, 2]}})");
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", dir.path("r.json")}).exit_code, 0);
  const Outcome o = schedbench(
      dir, {"compare", dir.path("r.json"), "--by", "scheduler=cpu-serial", "--format", "json"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  ASSERT_EQ(j["points"].size(), 2u) << o.out;
  EXPECT_EQ(j["points"][0]["label"], "mvp__cpu-openmp__seed-1");
  EXPECT_EQ(j["points"][1]["label"], "mvp__cpu-openmp__seed-2");
  for (const auto& p : j["points"])
    EXPECT_FALSE(p["digest_changed"].get<bool>()) << p;
}

TEST(Compare, BadInputIsOneLineExitTwo) {
  Pair p(1.0);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"compare", p.a, p.dir.path("missing.json")},
                                             {"compare", p.a, p.b, "--format", "xml"},
                                             {"compare", p.a, p.b, "--same-within", "-1"},
                                             {"compare", p.a, p.b, "--fail-if-slower", "ten"},
                                             {"compare", p.a},
                                             {"compare", p.a, p.b, "--by", "scheduler=naive"},
                                             {"compare", p.a, "--by", "scheduler"},
                                             {"compare", p.a, "--by", "scheduler=naive"}}) {
    const Outcome o = schedbench(p.dir, args);
    EXPECT_EQ(o.exit_code, 2) << args.back() << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}

// B edited by `edit` (its points as the sweep wrote them, times quiet), written over b.json.
template <class Edit>
void edit_b(const Pair& p, Edit edit) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(testing_support::slurp(p.b));
  edit(doc["points"]);
  p.dir.write("b.json", doc.dump(2));
}

void expect_one_line_exit_two(const Outcome& o, const std::string& expected) {
  EXPECT_EQ(o.exit_code, 2) << expected << "\n" << o.out << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_NE(o.err.find(expected), std::string::npos) << o.err;
}

// Times that give no ratio (none, zero, a double's smallest, negative) are refused, naming the
// point and the field, in either file: never a crash, an inf, a nan or a negative ratio.
TEST(Compare, TimesThatGiveNoRatioAreRefused) {
  Pair p(1.0);
  const std::vector<std::pair<nlohmann::ordered_json, std::string>> times = {
      {nlohmann::ordered_json::array(), "points[1].repetitions_ms: []"},
      {{0.0, 0.0, 0.0}, "points[1].repetitions_ms: [0.0,0.0,0.0]"},
      {{5e-324, 5e-324}, "points[1].repetitions_ms"},
      {{-1.0, -2.0}, "points[1].repetitions_ms: [-1.0,-2.0]"}};
  for (const auto& [t, expected] : times) {
    edit_b(p, [&](nlohmann::ordered_json& points) { points[1]["repetitions_ms"] = t; });
    expect_one_line_exit_two(schedbench(p.dir, {"compare", p.a, p.b}), expected);
    expect_one_line_exit_two(schedbench(p.dir, {"compare", p.b, p.a}), expected);
  }
  edit_b(p, [](nlohmann::ordered_json& points) { points[0]["stats"]["median_ms"] = 0; });
  expect_one_line_exit_two(schedbench(p.dir, {"compare", p.a, p.b}),
                           "points[0].stats.median_ms: 0; accepted: a time from 1e-06 to 1e+10 ms");
}

// A point listed twice, or two points of one configuration, is refused in A and in B: never
// counted twice nor one compared in place of the other.
TEST(Compare, APointListedTwiceIsRefused) {
  Pair p(1.0);
  edit_b(p, [](nlohmann::ordered_json& points) { points.push_back(points[0]); });
  expect_one_line_exit_two(schedbench(p.dir, {"compare", p.a, p.b}), "is listed twice");
  expect_one_line_exit_two(schedbench(p.dir, {"compare", p.b, p.a}), "is listed twice");
  edit_b(p, [](nlohmann::ordered_json& points) {
    points[1]["config"] = points[0]["config"];  // another label, the same configuration
  });
  expect_one_line_exit_two(schedbench(p.dir, {"compare", p.a, p.b}), "have the same configuration");
  expect_one_line_exit_two(schedbench(p.dir, {"compare", p.b, p.a}), "have the same configuration");
}

// The gate passes on what it compared: where B failed every point, or holds other points, there
// is nothing, and it fails (exit 4); an empty percentage is refused, never a gate turned off.
TEST(Compare, AGateThatComparedNothingFails) {
  Pair p(1.0);
  edit_b(p, [](nlohmann::ordered_json& points) {
    for (auto& q : points) {
      for (const char* key : {"repetitions_ms", "stats", "counts", "counters", "digest"})
        q.erase(key);
      q["status"] = "failed";
      q["failure"] = "crash";
      q["error"] = "killed by signal 11";
    }
  });
  Outcome o = schedbench(p.dir, {"compare", p.a, p.b, "--fail-if-slower", "5"});
  EXPECT_EQ(o.exit_code, 4) << o.out << o.err;
  EXPECT_NE(o.err.find("--fail-if-slower: no point of"), std::string::npos) << o.err;
  EXPECT_EQ(schedbench(p.dir, {"compare", p.a, p.b}).exit_code, 0);  // no gate: a report

  Pair other(1.0);
  edit_b(other, [](nlohmann::ordered_json& points) {
    for (auto& q : points)
      q["config"]["steps"] = 51;  // another workload in every point
  });
  o = schedbench(other.dir, {"compare", other.a, other.b, "--fail-if-slower", "5"});
  EXPECT_EQ(o.exit_code, 4) << o.out << o.err;
  EXPECT_NE(o.err.find("(4 only in A, 4 only in B"), std::string::npos) << o.err;

  expect_one_line_exit_two(schedbench(p.dir, {"compare", p.a, p.a, "--fail-if-slower", ""}),
                           "--fail-if-slower: empty");
}

// The bootstrap's work does not grow with the repetitions: 200,000 of them in each file are
// compared as any others are (the watchdog ends a compare that does not end; before, one ran
// past 120 s).
TEST(Compare, ManyRepetitionsAreComparedInBoundedWork) {
  Pair p(1.0);
  edit_b(p, [](nlohmann::ordered_json& points) {
    std::vector<double> times(200000);
    for (size_t i = 0; i < times.size(); ++i)
      times[i] = 10 + 1e-4 * static_cast<double>(i % 1000);
    for (auto& q : points) {
      q["repetitions_ms"] = times;
      q["stats"]["median_ms"] = 10.05;
    }
  });
  const Outcome o = testing_support::run_program(
      {"timeout", "60", SCHEDBENCH_EXE, "compare", p.b, p.b, "--fail-if-slower", "1"},
      p.dir.path(""));
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("4 points in both (0 only in A, 0 only in B)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("same 4"), std::string::npos) << o.out;
}

// compare --calibrate FLOOR on a pair whose B is 10 % slower throughout, and a run of `args`
// with that floor.
struct Floored {
  Pair p{1.1};
  std::string floor = p.dir.path("floor.json");
  Floored() {
    const Outcome o = schedbench(p.dir, {"compare", p.a, p.b, "--calibrate", floor});
    EXPECT_EQ(o.exit_code, 0) << o.err;
    EXPECT_NE(o.out.find("noise floor of cpu-"), std::string::npos) << o.out;
  }
};

// A floor from an A/A pair 10 % apart widens what counts as a difference: the same 10 % is no
// longer slower and passes the gate; 30 % still is slower and fails it.
TEST(Compare, ANoiseFloorWidensWhatCountsAsADifference) {
  Floored f;
  const nlohmann::json floor = read_json(f.floor);
  ASSERT_EQ(floor["devices"].size(), 1u) << floor.dump(2);
  const double value = floor["devices"].begin().value()["floor"].get<double>();
  EXPECT_GE(value, 0.1 - 1e-9);  // the interval's far end: at least the median's 10 %
  EXPECT_LT(value, 0.11);
  EXPECT_EQ(schedbench(f.p.dir, {"compare", f.p.a, f.p.b, "--fail-if-slower", "0"}).exit_code, 4);
  const Outcome o = schedbench(
      f.p.dir, {"compare", f.p.a, f.p.b, "--noise-floor", f.floor, "--fail-if-slower", "0"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("faster 0, slower 0, same 4"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("widened by the noise floor"), std::string::npos) << o.out;

  Pair slower(1.3);
  const Outcome s = schedbench(slower.dir, {"compare", slower.a, slower.b, "--noise-floor", f.floor,
                                            "--fail-if-slower", "5"});
  EXPECT_EQ(s.exit_code, 4) << s.err;
  EXPECT_NE(s.out.find("slower 4"), std::string::npos) << s.out;
  EXPECT_NE(s.err.find("and the noise floor"), std::string::npos) << s.err;
}

// A floor file for another device, a malformed one, --calibrate with --by or a floor, and a
// "pair" whose digests differ: one line, exit 2, and no floor file written.
TEST(Compare, BadNoiseFloorsAreOneLineExitTwo) {
  Floored f;
  nlohmann::ordered_json other = nlohmann::ordered_json::parse(testing_support::slurp(f.floor));
  nlohmann::ordered_json entry = other["devices"].begin().value();
  other["devices"] = {{"nvidia-h100-80gb-hbm3", entry}};
  f.p.dir.write("other.json", other.dump());
  expect_one_line_exit_two(
      schedbench(f.p.dir, {"compare", f.p.a, f.p.b, "--noise-floor", f.p.dir.path("other.json")}),
      "holds no floor for device cpu-");
  for (const std::string& text :
       {std::string("{}"), std::string("not json"),
        std::string(R"({"schema": "schedbench.noise-floor/1", "devices": {}})"),
        std::string(
            R"({"schema": "schedbench.noise-floor/1", "devices": {"x": {"floor": -1}}})")}) {
    f.p.dir.write("bad.json", text);
    const Outcome o =
        schedbench(f.p.dir, {"compare", f.p.a, f.p.b, "--noise-floor", f.p.dir.path("bad.json")});
    expect_one_line_exit_two(o, f.p.dir.path("bad.json"));
  }
  const std::string fresh = f.p.dir.path("fresh.json");
  expect_one_line_exit_two(
      schedbench(f.p.dir, {"compare", f.p.a, "--by", "scheduler=cpu-serial", "--calibrate", fresh}),
      "--calibrate");
  expect_one_line_exit_two(schedbench(f.p.dir, {"compare", f.p.a, f.p.b, "--noise-floor", f.floor,
                                                "--calibrate", fresh}),
                           "--calibrate");
  edit_b(f.p, [](nlohmann::ordered_json& points) { points[2]["digest"] = "0x0000000000000001"; });
  expect_one_line_exit_two(schedbench(f.p.dir, {"compare", f.p.a, f.p.b, "--calibrate", fresh}),
                           "another digest");
  EXPECT_FALSE(std::filesystem::exists(fresh));
}

}  // namespace
}  // namespace sb
