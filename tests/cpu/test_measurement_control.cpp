// The GPU's state for a point's timed runs as a user asks for it (--l2, --lock-clocks, their job
// keys), NVML where the driver is missing, visits' energy and locks joined, and the repetition
// loop's end at an error (docs/performance.md, "How it was measured").
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/bench/timing.hpp"
#include "harness/io/gpu_clocks.hpp"
#include "harness/sweep/point_process.hpp"
#include "tests/support/sweep_job.hpp"

namespace sb {
namespace {

namespace ts = testing_support;

// Without the driver's library NVML reads nothing and says why; nothing crashes.
TEST(Nvml, AbsentLibraryIsAReasonNotACrash) {
  std::string why;
  EXPECT_FALSE(GpuClocks::open(0, why, "libnvidia-ml-absent.so.1"));
  EXPECT_NE(why.find("libnvidia-ml-absent.so.1 cannot be opened"), std::string::npos) << why;
}

// Bad values of the options and job keys are refused in one line naming the value and what is
// accepted, with exit code 2, and no results file is written.
TEST(DeviceControl, BadValuesAreRefusedInOneLine) {
  ts::TempDir dir;
  const std::string job = ts::seed_job(dir, "1");
  const std::string out = dir.path("r.json");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--l2", "warm"}, "--l2: 'warm' is not accepted; accepted: hot, cold"},
      {{"--lock-clocks", "max"}, "--lock-clocks: 'max' is not accepted; accepted: off, base"}};
  for (const auto& [args, message] : cases) {
    std::vector<std::string> line = {"sweep", job, "--out", out};
    line.insert(line.end(), args.begin(), args.end());
    const ts::Outcome o = ts::schedbench(dir, line);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  const std::string bad_job =
      dir.write("bad.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial"],
    "l2": 3, "axes": {"init_n": 200, "steps": 50}})");
  const ts::Outcome o = ts::schedbench(dir, {"sweep", bad_job, "--out", out});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_NE(o.err.find("l2: 3 is not accepted; accepted: hot, cold"), std::string::npos) << o.err;
}

// --l2 cold and --lock-clocks base are recorded with the job's sampling; a CPU engine's points
// have no L2 flush, clock lock or energy of the GPU's to record.
TEST(DeviceControl, ColdL2AndClockLockAreRecorded) {
  ts::TempDir dir;
  const std::string out = dir.path("r.json");
  const ts::Outcome o = ts::schedbench(dir, {"sweep", ts::seed_job(dir, "1"), "--out", out, "--l2",
                                             "cold", "--lock-clocks", "base"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json r = ts::read_json(out);
  EXPECT_EQ(r["job"]["sampling"]["l2"], "cold");
  EXPECT_EQ(r["job"]["sampling"]["lock_clocks"], "base");
  const nlohmann::json& p = r["points"].at(0);
  EXPECT_EQ(p["status"], "ok");
  for (const char* key : {"l2", "clocks_locked", "energy"})
    EXPECT_FALSE(p.contains(key)) << key;
  // A job file's keys say the same.
  const std::string job = dir.write("cold.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial"],
    "repetitions": 1, "l2": "cold", "axes": {"init_n": 200, "steps": 50}})");
  ASSERT_EQ(ts::schedbench(dir, {"sweep", job, "--out", out, "--overwrite"}).exit_code, 0);
  EXPECT_EQ(ts::read_json(out)["job"]["sampling"]["l2"], "cold");
  EXPECT_EQ(ts::read_json(out)["job"]["sampling"]["lock_clocks"], "off");
}

// A point measured in visits: its energy is the visits' summed, over all their repetitions;
// its clocks count as locked only where every visit locked them.
TEST(DeviceControl, VisitsJoinTheirEnergyAndLocks) {
  const auto visit = [](double joules, double seconds, bool locked) {
    nlohmann::ordered_json v = {{"label", "p"},
                                {"digest", "0x1"},
                                {"repetitions_ms", {1.0, 1.0}},
                                {"counts", {{"particle_steps", 100}}},
                                {"counters", nlohmann::ordered_json::object()},
                                {"clocks_locked", locked},
                                {"energy", energy_record(joules, seconds, 2)},
                                {"finished_utc", "2026-01-01T00:00:00Z"}};
    if (!locked) v["clock_lock_refused"] = "Insufficient Permissions";
    return v;
  };
  nlohmann::ordered_json m = merge_visits(Sampling{}, {visit(3, 1, true), visit(5, 3, false)});
  EXPECT_DOUBLE_EQ(m["energy"]["joules"].get<double>(), 8);
  EXPECT_DOUBLE_EQ(m["energy"]["joules_per_repetition"].get<double>(), 2);
  EXPECT_DOUBLE_EQ(m["energy"]["mean_power_w"].get<double>(), 2);
  EXPECT_EQ(m["clocks_locked"], false);
  EXPECT_EQ(m["clock_lock_refused"], "Insufficient Permissions");
  nlohmann::ordered_json without = visit(5, 3, true);
  without.erase("energy");
  m = merge_visits(Sampling{}, {visit(3, 1, true), without});
  EXPECT_FALSE(m.contains("energy"));
  EXPECT_EQ(m["clocks_locked"], true);
}

// An error in a repetition ends the measurement; the repetitions before it are kept.
TEST(Timing, AnErrorEndsTheRepetitions) {
  int calls = 0;
  const TimedRepetitions t = time_repetitions(5, [&](Repetition& rep) {
    if (++calls == 3) {
      rep.error = "third failed";
      return;
    }
    rep.time_ms = calls;
  });
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(t.times_ms, (std::vector<double>{1, 2}));
  EXPECT_EQ(t.error, "third failed");
}

}  // namespace
}  // namespace sb
