// Job files are data: expansion into points, and one-line errors naming the file and the key.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/errors.hpp"
#include "harness/io/json_file.hpp"
#include "harness/job/fields_job.hpp"
#include "harness/job/job.hpp"
#include "harness/job/parameters.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/registry.hpp"
#include "sims/mvp/mvp.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb {
namespace {

using testing_support::TempDir;

std::string usage_error(const std::string& path, uint64_t max_points = kDefaultMaxPoints) {
  try {
    load_job(path, false, max_points);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

// The error of a job file that `text` makes, each part of `message` expected in it.
void expect_refused(const TempDir& dir, const std::string& text, const std::string& message) {
  const std::string error = usage_error(dir.write("bad.json", text));
  EXPECT_NE(error.find(message), std::string::npos) << text << "\ngave: " << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

const std::string kHead = R"({"sims": ["mvp"], "schedulers": ["cpu-serial"], )";

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
  EXPECT_EQ(mvp::split_chance().real(job.points.back().config), 0.2);
  EXPECT_EQ(job.points.back().config.init_n, 30u);
}

// A policy axis multiplies the points of the schedulers with policies only, and names the policy
// in their labels.
TEST(Job, PolicyAxisMultipliesSchedulersWithPolicies) {
  TempDir dir;
  const std::string path = dir.write("j.json", R"({
    "sims": ["mvp"], "schedulers": ["dynamic-warp", "cpu-sync", "naive"],
    "axes": {"init_n": 10, "steps": 5, "policy": ["default", "steps-16"]}})");
  const Job job = load_job(path, true);
  std::vector<std::string> labels;
  for (const JobPoint& p : job.points)
    labels.push_back(p.label);
  EXPECT_EQ(labels,
            (std::vector<std::string>{
                "mvp__dynamic-warp__policy-default", "mvp__dynamic-warp__policy-steps-16",
                "mvp__cpu-sync__policy-default", "mvp__cpu-sync__policy-steps-16", "mvp__naive"}));
  EXPECT_EQ(find_scheduler("dynamic-warp").policies.parameter.text(job.points.at(1).config),
            "steps-16");
}

// A policy must be one of every scheduler that the axis applies to, and of some scheduler at all.
TEST(Job, PolicyAxisNamesAPolicyOfTheSchedulers) {
  TempDir dir;
  const auto refusal = [&](const std::string& policy) -> std::string {
    try {
      load_job(dir.write("j.json", R"({"sims": ["mvp"], "schedulers": ["dynamic-warp", "cpu-sync"],
        "axes": {"init_n": 10, "steps": 5, "policy": ")" +
                                       policy + R"("}})"),
               true);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "no error";
  };
  // cpu-sync's, not dynamic-warp's.
  EXPECT_NE(refusal("pool-64").find("axes.policy (dynamic-warp): 'pool-64' is not accepted; "
                                    "accepted: default, sm90, steps-16, regs-80"),
            std::string::npos)
      << refusal("pool-64");
  // No scheduler's: the first of the job's that reads it refuses it, as its owner.
  EXPECT_NE(refusal("fastest").find("axes.policy (dynamic-warp): 'fastest' is not accepted; "
                                    "accepted: default, sm90, steps-16, regs-80"),
            std::string::npos)
      << refusal("fastest");
  // An axis that none of the job's schedulers reads is checked by every one that declares it.
  try {
    load_job(dir.write("k.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial"],
      "axes": {"init_n": 10, "steps": 5, "policy": "fastest"}})"),
             true);
    ADD_FAILURE() << "a policy that no scheduler has was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("axes.policy: 'fastest' is not accepted by any scheduler "
                                         "that reads it; accepted: default, sm90, steps-16, "
                                         "pool-64, no-tail, min-lanes-8, regs-80"),
              std::string::npos)
        << e.what();
  }
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
  EXPECT_EQ(steps_parameter().whole(job.points[8].config), 300u);
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
  EXPECT_EQ(job.sampling.repetitions, 5);
  EXPECT_EQ(job.sampling.warmup, 0);
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
    if (read_json_file(e.path().string(), "job").contains("program")) {
      EXPECT_EQ(load_fields_job(e.path().string()).name, e.path().stem().string());
      continue;
    }
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

// The scheduler comparisons of docs/performance.md: every scheduler at every block size of one
// workload, the form plot/scheduler_table.py summarises (it refuses points of several workloads).
TEST(Job, TheSchedulerComparisonsAreOneWorkloadAtEveryBlockSize) {
  for (const char* name : {"mvp-block-size", "pic-default"}) {
    const std::string path = std::string(SCHEDBENCH_SOURCE_DIR) + "/jobs/" + name + ".json";
    const Job job = load_job(path, true);
    const nlohmann::ordered_json& axes = job.spec["axes"];
    const size_t schedulers = job.spec["schedulers"].size(), blocks = axes["block_size"].size();
    ASSERT_EQ(job.points.size(), schedulers * blocks) << name;
    std::set<std::pair<std::string, uint32_t>> seen;
    const nlohmann::json first = config_json(job.points.front().config);
    for (const JobPoint& p : job.points) {
      seen.insert({p.config.scheduler, launch_knobs::of(p.config).block_size});
      // A parameter only some schedulers read (static-full's warp_sync) says nothing about the
      // workload; every one that both points have must agree, but for how they are scheduled.
      const nlohmann::json config = config_json(p.config);
      for (const auto& [key, value] : config.items()) {
        const bool tuning =
            key == "scheduler" || key == "block_size" || key == "blocks_per_sm" || key == "policy";
        if (!tuning && first.contains(key)) {
          EXPECT_EQ(value, first[key]) << name << ": " << p.label << ": " << key;
        }
      }
    }
    EXPECT_EQ(seen.size(), schedulers * blocks) << name;
  }
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
  for (const auto& [text, message] : cases)
    expect_refused(dir, text, message);
}

TEST(Job, PointsAreCountedAndCappedBeforeAnyIsBuilt) {
  TempDir dir;
  // Two billion values: refused from its count alone (expanding it would exhaust memory).
  expect_refused(
      dir, kHead + R"("axes": {"init_n": {"linear": [1, 2000000000], "step": 1}, "steps": 5}})",
      "bad.json: axes.init_n: 2000000000 values; accepted: at most 100000 "
      "(--max-points raises it)");
  expect_refused(dir,
                 kHead + R"("axes": {"init_n": {"log": [1, 1e9], "points": 1000000}, "steps": 5}})",
                 "bad.json: axes.init_n: 1000000 values; accepted: at most 100000");
  // Each axis is small; their product is not.
  expect_refused(
      dir,
      kHead + R"("axes": {"init_n": {"linear": [1, 1000], "step": 1}, )"
              R"("steps": {"linear": [1, 1000], "step": 1}}})",
      "bad.json: axes: 1000000 points; accepted: at most 100000 (--max-points raises it)");
  const std::string twelve = dir.write(
      "twelve.json", kHead + R"("axes": {"init_n": [1, 2, 3, 4, 5, 6], "steps": [1, 2]}})");
  EXPECT_NE(usage_error(twelve, 11).find("twelve.json: axes: 12 points; accepted: at most 11"),
            std::string::npos);
  EXPECT_EQ(load_job(twelve, false, 12).points.size(), 12u);
  // An axis counts only where it applies: block_size does not multiply CPU points.
  const std::string cpu = dir.write(
      "cpu.json", kHead + R"("axes": {"init_n": [1, 2, 3], "steps": 1, "block_size": [32, 64]}})");
  EXPECT_EQ(load_job(cpu, false, 3).points.size(), 3u);
}

TEST(Job, NullsAndWrongTypesNameTheKey) {
  TempDir dir;
  const std::string gpu_head = R"({"sims": ["mvp"], "schedulers": ["naive"], )";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {gpu_head + R"("axes": {"init_n": 10, "steps": 5, "block_size": [32, 64, null]}})",
       "bad.json: axes.block_size[2]: null is not a value"},
      {kHead + R"("axes": {"init_n": null, "steps": 5}})",
       "bad.json: axes.init_n: null is not a value"},
      {kHead + R"("axes": {"init_n": [10, [20]], "steps": 5}})",
       "bad.json: axes.init_n[1]: [20] is not a value"},
      {kHead + R"("axes": {"init_n": {"every": 2}, "steps": 5}})",
       "bad.json: axes.init_n: {\"every\":2} is not accepted; accepted: a value, a list"},
      {kHead + R"("axes": {"init_n": {"linear": [1, null], "step": 1}, "steps": 5}})",
       "bad.json: axes.init_n.linear: [1,null] is not accepted; accepted: [first, last]"},
      {kHead + R"("axes": {"init_n": {"linear": [1, 5], "step": null}, "steps": 5}})",
       "bad.json: axes.init_n.step: null is not accepted; accepted: a number above 0"},
      {kHead + R"("axes": {"init_n": {"log": [1, 5], "points": "3"}, "steps": 5}})",
       "bad.json: axes.init_n.points: \"3\" is not accepted; accepted: a whole number"},
      {kHead + R"("axes": null})", "bad.json: axes: null is not accepted; accepted: an object"},
      {kHead + R"("axes": [{"init_n": 1, "steps": 5}, null]})",
       "bad.json: axes[1]: null is not accepted; accepted: an object"},
      {R"({"sims": ["mvp", null], "schedulers": ["cpu-serial"], "axes": {"init_n": 1, "steps": 5}})",
       "bad.json: sims[1]: null is not a name"},
      {kHead + R"("fallback_schedulers": null, "axes": {"init_n": 1, "steps": 5}})",
       "bad.json: fallback_schedulers: must be a non-empty list of names"},
      {kHead + R"("repetitions": null, "axes": {"init_n": 1, "steps": 5}})",
       "bad.json: repetitions: null is not a whole number from 1 to 1000"},
      {kHead + R"("estimated_s": null, "axes": {"init_n": 1, "steps": 5}})",
       "bad.json: estimated_s: must be seconds above 0"},
      {kHead + R"("description": null, "axes": {"init_n": 1, "steps": 5}})",
       "bad.json: description: must be text"},
      {"null", "bad.json: (top level): must be an object"},
  };
  for (const auto& [text, message] : cases)
    expect_refused(dir, text, message);
}

TEST(Job, NumbersAreDecimalOnly) {
  TempDir dir;
  const std::string ok_steps = R"(, "steps": 5}})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("axes": {"init_n": 1.5)" + ok_steps,
       "bad.json: axes.init_n: '1.5' is not a whole number"},
      // A number or a switch written as a string is refused.
      {R"("axes": {"init_n": "100")" + ok_steps,
       "bad.json: axes.init_n: \"100\" is a string; accepted: a number"},
      {R"("axes": {"init_n": [10, "20"])" + ok_steps,
       "bad.json: axes.init_n[1]: \"20\" is a string; accepted: a number"},
      {R"("axes": {"init_n": "0x10")" + ok_steps,
       "bad.json: axes.init_n: '0x10' is not a whole number from 1 to 1000000000000000, written in "
       "decimal"},
      {R"("axes": {"init_n": [10, "inf"])" + ok_steps, "bad.json: axes.init_n[1]: 'inf' is not"},
      {R"("axes": {"init_n": 10, "split_chance": "nan")" + ok_steps,
       "bad.json: axes.split_chance: 'nan' is not a number from 0 to 100, written in decimal"},
      {R"("axes": {"init_n": 10, "skip_spawned": "true")" + ok_steps,
       "bad.json: axes.skip_spawned: \"true\" is a string; accepted: true or false"},
      {R"("axes": {"init_n": 10, "skip_spawned": 1)" + ok_steps,
       "bad.json: axes.skip_spawned: 1 is a number; accepted: true or false"},
      {R"("axes": {"init_n": 10, "skip_spawned": [true, 0])" + ok_steps,
       "bad.json: axes.skip_spawned[1]: 0 is a number; accepted: true or false"},
      {R"("axes": {"init_n": 10, "skip_spawned": {"linear": [0, 1], "step": 1})" + ok_steps,
       "bad.json: axes.skip_spawned: {\"linear\":[0,1],\"step\":1} is a range; accepted: true or "
       "false"},
      {R"("warmup": 1.5, "axes": {"init_n": 10)" + ok_steps,
       "bad.json: warmup: 1.5 is not a whole number from 0 to 100"},
      {R"("axes": {"init_n": 10, "split_chance": 1e400)" + ok_steps, "bad.json: not valid JSON"},
      {R"("axes": {"init_n": 10, "seed": 18446744073709551616)" + ok_steps,
       "bad.json: axes.seed: '1.8446744073709552e+19' is not a whole number from 0 to"},
  };
  for (const auto& [text, message] : cases)
    expect_refused(dir, kHead + text, message);
  // A whole value in scientific notation is a whole number, in the axes and the header alike.
  const std::string sci = dir.write("sci.json", kHead + R"("axes": {"init_n": 1e4)" + ok_steps);
  EXPECT_EQ(load_job(sci, false).points.at(0).config.init_n, 10000u);
  const Job header = load_job(dir.write("header.json", kHead + R"("warmup": 1e2, "repetitions": 2e1,
    "axes": {"init_n": {"log": [10, 1000], "points": 3e0}, "steps": 5}})"),
                              false);
  EXPECT_EQ(header.sampling.warmup, 100);
  EXPECT_EQ(header.sampling.repetitions, 20);
  EXPECT_EQ(header.points.size(), 3u);
}

// Bytes after the JSON are refused, a NUL among them (nlohmann's parser takes a NUL for the end
// of the text).
TEST(Job, ANulAndGarbageAfterTheJsonAreRefused) {
  TempDir dir;
  const std::string good = kHead + R"("axes": {"init_n": 10, "steps": 5}})";
  EXPECT_EQ(load_job(dir.write("good.json", good), false).points.size(), 1u);
  expect_refused(
      dir, good + std::string(1, '\0') + "garbage",
      "bad.json: not valid JSON (a NUL byte at offset " + std::to_string(good.size()) + ")");
  expect_refused(dir, good + " garbage", "bad.json: not valid JSON");
}

// What `run` refuses a job refuses, by the same check, wherever the point stands in the job:
// air's space charge with --batch on a GPU scheduler after a CPU one (whose point the sim's check
// saw first), and a gas mixture with a trailing comma.
TEST(Job, APointRunRefusesIsRefused) {
  TempDir dir;
  const std::string air = R"({"sims": ["air"], "schedulers": ["cpu-serial", "dynamic-warp"],
    "axes": {"init_n": 10, "reduced_field": 100, )";
  const std::string batch =
      dir.write("batch.json", air + R"("space_charge": true, "batch": 1000}})");
  try {
    load_job(batch, true);
    ADD_FAILURE() << "space charge with batch accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("axes: --batch 1000: air has grid work between phases "
                                         "that needs all its particles on the device"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(
      load_job(dir.write("no_batch.json", air + R"("space_charge": true}})"), true).points.size(),
      2u);
  expect_refused(dir, air + R"("gas": "N2:0.8,O2:0.2,"}})",
                 "bad.json: axes: --gas: 'N2:0.8,O2:0.2,' has ''");
}

TEST(Job, ValuesAreCheckedWhereTheirAxisDoesNotApply) {
  TempDir dir;
  // pic's poisson_steps on an mvp job, block_size on a CPU scheduler: they multiply no point,
  // but a bad value is still a bad file.
  expect_refused(dir, kHead + R"("axes": {"init_n": 10, "steps": 5, "poisson_steps": 0}})",
                 "bad.json: axes.poisson_steps: '0' is not a whole number from 1 to 100000");
  expect_refused(dir, kHead + R"("axes": {"init_n": 10, "steps": 5, "block_size": [128, 100]}})",
                 "bad.json: axes.block_size[1]: '100' is not a multiple of 32");
  // Fallback schedulers are checked on a machine that runs the others.
  const std::string fallback =
      dir.write("fallback.json",
                R"({"sims": ["mvp"], "schedulers": ["naive"], "fallback_schedulers": ["nope"], )"
                R"("axes": {"init_n": 10, "steps": 5}})");
  try {
    load_job(fallback, true);
    ADD_FAILURE() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "fallback.json: fallback_schedulers: --scheduler: 'nope' is not a scheduler"),
              std::string::npos)
        << e.what();
  }
}

TEST(Job, NameKeepsResultsInsideResults) {
  TempDir dir;
  for (const std::string name : {"../escape", "a/b", "..", "up..", "", "two\nlines"}) {
    expect_refused(dir,
                   kHead + R"("name": )" + nlohmann::json(name).dump() +
                       R"(, "axes": {"init_n": 10, "steps": 5}})",
                   "bad.json: name: '");
  }
  expect_refused(dir, kHead + R"("name": "a/b", "axes": {"init_n": 10, "steps": 5}})",
                 "bad.json: name: 'a/b' is not accepted; accepted: a name without '/', '..'");
  const std::string fine =
      dir.write("fine.json", kHead + R"("name": "v1.2_x-y", "axes": {"init_n": 10, "steps": 5}})");
  EXPECT_EQ(load_job(fine, false).name, "v1.2_x-y");
}

TEST(Job, ADirectoryOrADeviceIsNamedAsSuch) {
  TempDir dir;
  EXPECT_NE(usage_error(dir.path("")).find("the job file is a directory; accepted: a regular file"),
            std::string::npos);
  EXPECT_NE(usage_error("/dev/zero").find("/dev/zero: the job file is a device"),
            std::string::npos);
  EXPECT_NE(usage_error(dir.path("missing.json")).find("cannot read the job file"),
            std::string::npos);
}

}  // namespace
}  // namespace sb
