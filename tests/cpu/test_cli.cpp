// The schedbench command as a user meets it: bad input gets one line naming the value and what
// is accepted, exit code 2, and nothing written.
#include <fmt/format.h>
#include <gif_lib.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/process.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb {
namespace {

using testing_support::TempDir;

using testing_support::Outcome;
using testing_support::slurp;

Outcome schedbench(const std::vector<std::string>& args) {
  TempDir dir;
  std::vector<std::string> argv = {SCHEDBENCH_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing_support::run_program(argv, dir.path(""));
}

std::vector<std::string> run_args(std::vector<std::string> extra) {
  std::vector<std::string> args = {"run",      "--sim", "mvp",     "--scheduler", "cpu-serial",
                                   "--init-n", "100",   "--steps", "10"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::vector<std::string> pic_args(std::vector<std::string> extra) {
  std::vector<std::string> args = {
      "run", "--sim",           "pic", "--scheduler",      "cpu-serial", "--init-n",
      "5",   "--poisson-steps", "1",   "--mobility-steps", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::vector<std::string> toy_frames_args(std::vector<std::string> extra) {
  std::vector<std::string> args = {"run",
                                   "--sim",
                                   "toy",
                                   "--scheduler",
                                   "cpu-serial",
                                   "--init-n",
                                   "100",
                                   "--steps",
                                   "100",
                                   "--frames",
                                   "/tmp/schedbench-never-written/frames"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

struct BadInput {
  const char* name;
  std::vector<std::string> args;
  const char* message;  // the error line must contain this
};

void PrintTo(const BadInput& b, std::ostream* os) {
  *os << b.name;
}

class CliBadInput : public testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, OneLineExitTwoNothingWritten) {
  TempDir dir;
  const std::string json = dir.path("result.json");
  // The case's own options come last: where it names --json too, its value wins.
  std::vector<std::string> args = GetParam().args;
  args.insert(args.begin() + 1, {"--json", json});
  const Outcome o = schedbench(args);
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_NE(o.err.find(GetParam().message), std::string::npos) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_FALSE(std::filesystem::exists(json));
}

const BadInput kBadInputs[] = {
    {"unknown_policy", run_args({"--policy", "fastest"}),
     "--policy: 'fastest' is not accepted by any scheduler that reads it; accepted: default, "
     "sm90"},
    {"policy_of_a_scheduler_without_policies", run_args({"--policy", "default"}),
     "--policy: does not apply to scheduler cpu-serial; it applies to: "},
    {"policy_of_another_scheduler",
     {"run", "--sim", "mvp", "--scheduler", "cpu-sync", "--init-n", "100", "--steps", "10",
      "--policy", "regs-80"},
     "--policy (cpu-sync): 'regs-80' is not accepted; accepted: default, sm90, steps-16, pool-64, "
     "no-tail"},
    {"warp_sync_of_another_scheduler",
     {"run", "--sim", "mvp", "--scheduler", "dynamic-warp", "--init-n", "100", "--steps", "10",
      "--warp-sync"},
     "--warp-sync: does not apply to scheduler dynamic-warp; it applies to: static-full"},
    {"unknown_sim",
     {"run", "--sim", "nbody", "--scheduler", "cpu-serial", "--init-n", "5", "--steps", "5"},
     "--sim: 'nbody' is not a sim; accepted: toy, mvp"},
    // The example sim of docs/design.md §9 is for the tests only.
    {"example_sim",
     {"run", "--sim", "walk", "--scheduler", "cpu-serial", "--init-n", "5", "--steps", "5"},
     "--sim: 'walk' is not a sim; accepted: toy, mvp"},
    {"unknown_scheduler",
     {"run", "--sim", "mvp", "--scheduler", "fastest", "--init-n", "5", "--steps", "5"},
     "--scheduler: 'fastest' is not a scheduler; accepted: cpu-serial"},
    {"init_n_not_a_number", run_args({"--init-n", "lots"}),
     "--init-n: 'lots' is not a whole number from 1 to 1000000000000000"},
    {"init_n_negative", run_args({"--init-n=-5"}), "--init-n: '-5' is not a whole number from 1"},
    {"init_n_zero", run_args({"--init-n", "0"}), "--init-n: '0' is not a whole number from 1"},
    {"init_n_fraction", run_args({"--init-n", "2.5"}), "--init-n: '2.5' is not a whole number"},
    {"steps_zero", run_args({"--steps", "0"}), "--steps: '0' is not a whole number from 1"},
    {"capacity_past_the_most", run_args({"--capacity", "2e15"}),
     "--capacity: '2e15' is not a whole number from 1 to 1000000000000000"},
    {"capacity_zero", run_args({"--capacity", "0"}),
     "--capacity: '0' is not a whole number from 1"},
    {"capacity_below_init_n", run_args({"--capacity", "50"}),
     "--capacity: 50 is below --init-n 100"},
    {"block_size_not_multiple_of_32", run_args({"--block-size", "100"}),
     "--block-size: '100' is not a multiple of 32 from 32 to 1024"},
    {"block_size_too_big", run_args({"--block-size", "2048"}),
     "--block-size: '2048' is not a whole number from 32 to 1024"},
    {"block_size_too_small", run_args({"--block-size", "0"}),
     "--block-size: '0' is not a whole number from 32 to 1024"},
    {"batch_below_the_least", run_args({"--batch", "10"}),
     "--batch: '10' is not accepted; accepted: auto or a whole number from 1000 to"},
    {"batch_of_a_sim_whose_grid_work_does_not_stream",
     {"run", "--sim", "air", "--scheduler", "dynamic-warp", "--init-n", "5", "--reduced-field",
      "400", "--phases", "1", "--phase-time", "1e-12", "--space-charge", "--grid", "16", "--batch",
      "5000"},
     "--batch 5000: air has grid work between phases that needs all its particles on the device"},
    {"blocks_per_sm", run_args({"--blocks-per-sm", "many"}),
     "--blocks-per-sm: 'many' is not accepted; accepted: fill"},
    {"split_chance_above_100", run_args({"--split-chance", "150"}),
     "--split-chance: '150' is not a number from 0 to 100"},
    {"split_chance_for_toy",
     {"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n", "5", "--steps", "5",
      "--split-chance", "1"},
     "--split-chance: does not apply to sim toy; it applies to: mvp"},
    {"layout",
     {"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n", "5", "--steps", "5",
      "--layout", "ring"},
     "--layout: 'ring' is not accepted; accepted: center, column"},
    {"missing_steps",
     {"run", "--sim", "mvp", "--scheduler", "cpu-serial", "--init-n", "5"},
     "--steps: required"},
    {"unknown_option", run_args({"--speed", "11"}), "--speed"},
    {"json_in_a_file", run_args({"--json", SCHEDBENCH_SOURCE_DIR "/README.md/r.json"}),
     "/README.md' is not a directory"},
    {"frames_for_mvp", run_args({"--frames", "/tmp/schedbench-never-written/frames"}),
     "--frames: sim mvp draws no frames; accepted: toy"},
    {"frame_every_zero", toy_frames_args({"--frame-every", "0"}),
     "--frame-every: '0' is not a whole number from 1 to 2147483647"},
    {"frame_every_negative", toy_frames_args({"--frame-every=-10"}),
     "--frame-every: '-10' is not a whole number from 1 to 2147483647"},
    {"frame_every_not_a_number", toy_frames_args({"--frame-every", "often"}),
     "--frame-every: 'often' is not a whole number from 1 to 2147483647"},
    {"frame_every_not_a_divisor", toy_frames_args({"--frame-every", "7"}),
     "--frame-every: 7 does not divide --steps 100; accepted: a divisor of 100"},
    {"too_many_frames", toy_frames_args({"--steps", "1000", "--frame-every", "1"}),
     "--frame-every: 1 makes 1000 frames of --steps 1000; accepted: at most 500 frames, every 2 "
     "steps or more"},
    {"frames_with_density_png",
     toy_frames_args({"--density-png", "/tmp/schedbench-never-written/density"}),
     "--frames: cannot be combined with --density-png"},
    // Numbers are decimal only: no hex, no inf or nan, no overflow, no fraction for a count.
    {"init_n_hex", run_args({"--init-n", "0x10"}),
     "--init-n: '0x10' is not a whole number from 1 to 1000000000000000, written in decimal"},
    {"init_n_overflow", run_args({"--init-n", "1e400"}), "--init-n: '1e400' is not a whole"},
    {"init_n_inf", run_args({"--init-n", "inf"}), "--init-n: 'inf' is not a whole"},
    {"init_n_fraction_in_scientific", run_args({"--init-n", "1.5e0"}),
     "--init-n: '1.5e0' is not a whole"},
    {"init_n_plus", run_args({"--init-n", "+100"}), "--init-n: '+100' is not a whole"},
    {"init_n_space", run_args({"--init-n", " 100"}), "--init-n: ' 100' is not a whole"},
    {"init_n_line_break", run_args({"--init-n", "100\n5"}), "--init-n: '100\\x0a5' is not"},
    {"capacity_overflow", run_args({"--capacity", "99999999999999999999999"}),
     "--capacity: '99999999999999999999999' is not a whole number"},
    {"seed_above_2_64", run_args({"--seed", "18446744073709551616"}),
     "--seed: '18446744073709551616' is not a whole number from 0 to 18446744073709551615"},
    {"split_chance_nan", run_args({"--split-chance", "nan"}),
     "--split-chance: 'nan' is not a number from 0 to 100, written in decimal"},
    {"split_chance_minus_inf", run_args({"--split-chance=-inf"}),
     "--split-chance: '-inf' is not a number"},
    {"split_chance_hex_float", run_args({"--split-chance", "0x1p-3"}),
     "--split-chance: '0x1p-3' is not a number"},
    {"split_chance_underflow", run_args({"--split-chance", "1e-400"}),
     "--split-chance: '1e-400' is not a number"},
    {"timeout_inf", run_args({"--timeout", "inf"}), "--timeout: 'inf' is not a number"},
    {"blocks_per_sm_hex", run_args({"--blocks-per-sm", "0x10"}),
     "--blocks-per-sm: '0x10' is not accepted; accepted: fill or a whole "
     "number from 1 to 32, written in decimal"},
    {"blocks_per_sm_fraction", run_args({"--blocks-per-sm", "2.5"}),
     "--blocks-per-sm: '2.5' is not accepted"},
    {"cross_section_empty",
     {"run", "--sim", "pic", "--scheduler", "cpu-serial", "--init-n", "5", "--poisson-steps", "1",
      "--mobility-steps", "1", "--cross-section", ""},
     "--cross-section (pic): empty; accepted: a file name or 'synthetic'"},
    {"cross_section_directory",
     {"run", "--sim", "pic", "--scheduler", "cpu-serial", "--init-n", "5", "--poisson-steps", "1",
      "--mobility-steps", "1", "--cross-section", "/"},
     "/: the cross-section file is a directory; accepted: a regular file"},
    {"grid_not_a_power_of_two", pic_args({"--field", "poisson", "--grid", "100"}),
     "--grid: 100 is not a power of two; accepted: 16, 32, 64, 128, 256, 512, 1024 (the FFT "
     "solve's mesh sizes)"},
    {"grid_above_1024", pic_args({"--field", "poisson", "--grid", "2048"}),
     "--grid: '2048' is not a whole number from 16 to 1024"},
    {"grid_below_16", pic_args({"--field", "poisson", "--grid", "8"}),
     "--grid: '8' is not a whole number from 16 to 1024"},
    {"grid_with_the_mock_field", pic_args({"--grid", "64"}),
     "--grid: 64 applies with --field poisson only; the field is mock"},
    {"field_solver_with_the_mock_field", pic_args({"--field", "mock", "--field-solver", "host"}),
     "--field-solver: host applies with --field poisson only; the field is mock"},
    {"field_solver_not_known", pic_args({"--field", "poisson", "--field-solver", "gpu"}),
     "--field-solver: 'gpu' is not accepted; accepted: device, host"},
    {"precision_not_known", pic_args({"--precision", "half"}),
     "--precision: 'half' is not accepted; accepted: double, mixed, single"},
    {"reduced_precision_of_the_poisson_field",
     pic_args({"--field", "poisson", "--precision", "mixed"}),
     "--precision: mixed is not offered here, only double: pic's Poisson field is solved"},
    {"reduced_precision_of_the_space_charge",
     {"run", "--sim", "air", "--scheduler", "cpu-serial", "--init-n", "5", "--reduced-field", "100",
      "--space-charge", "--precision", "single"},
     "--precision: single is not offered here, only double: air's space charge"},
    {"precision_of_a_sim_without_it", run_args({"--precision", "single"}),
     "--precision: does not apply to sim mvp; it applies to: pic, air"},
    {"field_model_not_known", pic_args({"--field", "vlasov"}),
     "--field: 'vlasov' is not accepted; accepted: mock, poisson"},
    {"field_model_of_a_sim_without_a_field", run_args({"--field", "poisson"}),
     "--field: does not apply to sim mvp; it applies to: pic"},
    {"grid_of_a_sim_without_a_field",
     {"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n", "5", "--steps", "5", "--grid",
      "64"},
     "--grid: does not apply to sim toy; it applies to: pic, air"},
    {"field_solver_of_air",
     {"run", "--sim", "air", "--scheduler", "cpu-serial", "--init-n", "5", "--reduced-field", "100",
      "--field-solver", "host"},
     "--field-solver: host applies with --space-charge only; space charge is off"},
    {"average_from_past_the_last_phase",
     {"run", "--sim", "air", "--scheduler", "cpu-serial", "--init-n", "5", "--reduced-field", "100",
      "--phases", "4", "--average-from", "4"},
     "--average-from: phase 4 is past the run's last; accepted: 0 to 3"},
    {"progress_below_zero", run_args({"--progress", "-1"}),
     "--progress: '-1' is not a number of seconds from 0 to 1000000, written in decimal; accepted: "
     "0 (no progress lines) or the seconds between two"},
    {"progress_not_a_number", run_args({"--progress", "often"}), "--progress: 'often' is not"},
    {"ionization_sharing_unknown",
     {"run", "--sim", "air", "--scheduler", "cpu-serial", "--init-n", "5", "--reduced-field", "100",
      "--ionization-sharing", "random"},
     "--ionization-sharing"},
    {"field_model_given_to_air",
     {"run", "--sim", "air", "--scheduler", "cpu-serial", "--init-n", "5", "--field", "poisson"},
     "--field: 'poisson' is not a number"},
    {"cross_section_device",
     {"run", "--sim", "pic", "--scheduler", "cpu-serial", "--init-n", "5", "--poisson-steps", "1",
      "--mobility-steps", "1", "--cross-section", "/dev/zero"},
     "/dev/zero: the cross-section file is a device; accepted: a regular file"},
};

INSTANTIATE_TEST_SUITE_P(Cli, CliBadInput, testing::ValuesIn(kBadInputs),
                         [](const testing::TestParamInfo<BadInput>& i) { return i.param.name; });

TEST(Cli, ListShowsEverySimAndScheduler) {
  const Outcome o = schedbench({"list"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  std::istringstream lines(o.out);
  for (std::string line; std::getline(lines, line);)
    EXPECT_LE(line.size(), 100u) << line;  // details under `list NAME`
  EXPECT_NE(o.out.find("dynamic-warp   default, sm90, steps-16"), std::string::npos) << o.out;
  const Outcome air = schedbench({"list", "air"});
  EXPECT_NE(air.out.find("  --reduced-field\n"), std::string::npos) << air.out;
  const Outcome unknown = schedbench({"list", "warp"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("list: 'warp' is no sim or scheduler; accepted: toy, mvp"),
            std::string::npos)
      << unknown.err;
  for (const char* name : {"toy", "mvp", "cpu-serial", "cpu-openmp"}) {
    EXPECT_NE(o.out.find(name), std::string::npos) << name;
  }
  for (const char* example : {"walk", "breadth-first", "example"}) {  // docs/design.md §8-9
    EXPECT_EQ(o.out.find(example), std::string::npos) << example;
  }
}

// The catalog the plots read: every sim and scheduler of `list`, each parameter with a label and
// a role, the yardstick marked as such, the tuning keys those a scheduler is compared over.
TEST(Cli, ListJsonIsTheCatalog) {
  const Outcome o = schedbench({"list", "--json"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json c = nlohmann::json::parse(o.out);
  EXPECT_EQ(c["schema"], "schedbench.catalog/1");
  std::map<std::string, std::string> kinds;
  for (const auto& s : c["schedulers"])
    kinds[s["name"]] = s["kind"];
  EXPECT_EQ(kinds.size(), 19u);
  EXPECT_EQ(kinds["bound"], "yardstick");
  EXPECT_EQ(kinds["dynamic-warp"], "gpu");
  EXPECT_EQ(kinds["cpu-serial"], "cpu");
  std::map<std::string, std::string> roles;
  for (const auto& p : c["parameters"]) {
    EXPECT_FALSE(p["label"].get<std::string>().empty()) << p["key"];
    roles[p["key"]] = p["role"];
  }
  EXPECT_EQ(roles["block_size"], "tuning");
  EXPECT_EQ(roles["policy"], "tuning");
  EXPECT_EQ(roles["capacity"], "bookkeeping");
  EXPECT_EQ(roles["init_n"], "workload");
  ASSERT_EQ(c["sims"].size(), 5u);
  EXPECT_EQ(c["sims"][4]["name"], "ccp");
  EXPECT_EQ(c["sims"][2]["name"], "pic");
  EXPECT_EQ(c["sims"][2]["parameters"][0], "poisson_steps");
}

// Whether some line of `text` holds every one of `parts`, in order.
bool has_line(const std::string& text, const std::vector<std::string>& parts) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    size_t at = 0;
    for (const std::string& part : parts) {
      at = line.find(part, at);
      if (at == std::string::npos) break;
      at += part.size();
    }
    if (at != std::string::npos) return true;
  }
  return false;
}

// Every scheduler with tuning policies shows each with its constants, and what `default` means
// where it was not measured.
TEST(Cli, ListShowsThePoliciesAndTheirConstants) {
  Outcome o;
  for (const char* scheduler : {"dynamic-warp", "dynamic-block", "cpu-sync", "naive"}) {
    const Outcome one = schedbench({"list", scheduler});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    o.out += one.out;
  }
  const std::vector<std::vector<std::string>> rows = {
      {"dynamic-warp ", " sm90 ", "pool 32, steps_per_iteration 8, large_particle_registers 72"},
      {"dynamic-warp ", " default ",
       "sm_90: sm90 (measured); any other architecture: sm90 (not "
       "measured)"},
      {"dynamic-warp ", " spill ", "recycled_slots 64, spill_to_dead_slots 1"},
      {"dynamic-warp ", " queue ", "spill_to_dead_slots 0, work_queue 1"},
      {"dynamic-block ", " min-lanes-8 ", "min_lanes 8"},
      {"dynamic-block ", " sm90 ", "large_particle_registers 80, recycled_slots 64"},
      {"cpu-sync ", " pool-64 ", "pool 64, steps_per_iteration 8, min_lanes 16"},
      {"cpu-sync ", " sm90 ", "min_lanes 16, recycled_slots 64, tail_waves 2"},
      {"cpu-sync ", " no-tail ", "recycled_slots 64, tail_waves 0"}};
  for (const auto& row : rows)
    EXPECT_TRUE(has_line(o.out, row)) << row[1] << "\n" << o.out;
  EXPECT_FALSE(has_line(o.out, {"naive ", " default "})) << o.out;
}

TEST(Cli, RunPrintsCountsAndWritesTheResult) {
  TempDir dir;
  const std::string json = dir.path("r.json");
  const Outcome o = schedbench(run_args({"--split-chance", "5", "--json", json}));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  for (const char* what : {"particle-steps", "digest", "particle-steps/s", "spawned"}) {
    EXPECT_NE(o.out.find(what), std::string::npos) << o.out;
  }
  const nlohmann::json j = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(j["schema"], "schedbench.run/1");
  EXPECT_EQ(j["config"]["sim"], "mvp");
  EXPECT_EQ(j["config"]["split_chance"], 5.0);
  EXPECT_EQ(j["result"]["counts"]["initial"], 100);
  EXPECT_GT(j["result"]["counts"]["spawned"].get<int>(), 0);
  EXPECT_EQ(j["result"]["digest"].get<std::string>().size(), 18u);
  EXPECT_TRUE(j["environment"]["build"].contains("git_commit"));
  EXPECT_TRUE(j["environment"]["host"].contains("cpu"));
  EXPECT_FALSE(j["config"].contains("layout"));  // a toy parameter
}

// A run says on stderr how far it is, at most every --progress seconds: here after every launch
// of cpu-serial (a phase each), to its last phase; with 0, never.
TEST(Cli, ARunReportsItsProgressOnStderr) {
  const Outcome often = schedbench({"run", "--sim", "air", "--scheduler", "cpu-serial", "--init-n",
                                    "20", "--reduced-field", "100", "--phases", "4",
                                    "--phase-time", "1e-12", "--progress", "1e-9"});
  ASSERT_EQ(often.exit_code, 0) << often.err;
  EXPECT_NE(often.err.find("progress: phase 1 of 4 (25.0 %), "), std::string::npos) << often.err;
  EXPECT_NE(often.err.find("progress: phase 4 of 4 (100.0 %), "), std::string::npos) << often.err;
  EXPECT_NE(often.err.find(" particles, "), std::string::npos) << often.err;
  EXPECT_EQ(often.out.find("progress:"), std::string::npos) << often.out;
  const Outcome never = schedbench({"run", "--sim", "air", "--scheduler", "cpu-serial", "--init-n",
                                    "20", "--reduced-field", "100", "--phases", "4",
                                    "--phase-time", "1e-12", "--progress", "0"});
  ASSERT_EQ(never.exit_code, 0) << never.err;
  EXPECT_EQ(never.err.find("progress:"), std::string::npos) << never.err;
}

// An observing sim's run records its observables per phase and their averages over the phases
// asked for, each with its standard error, and air's real collisions per second.
TEST(Cli, RunAveragesTheObservablesAndCountsRealCollisions) {
  TempDir dir;
  const std::string json = dir.path("air.json");
  const Outcome o = schedbench({"run", "--sim", "air", "--scheduler", "cpu-serial", "--init-n",
                                "200", "--reduced-field", "400", "--phases", "6", "--phase-time",
                                "1e-12", "--average-from", "2", "--json", json});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  for (const char* what :
       {"averages        over phases 2 to 5", "real_collisions/s", "bulk_ND_T_per_m_s"}) {
    EXPECT_NE(o.out.find(what), std::string::npos) << what << "\n" << o.out;
  }
  const nlohmann::json r = nlohmann::json::parse(slurp(json))["result"];
  ASSERT_EQ(r["observables"].size(), 6u);
  const nlohmann::json& averages = r["averages"];
  EXPECT_EQ(averages["from"], 2);
  const nlohmann::json& energy = averages["mean_energy_eV"];
  EXPECT_EQ(energy["phases"], 4);
  double sum = 0;
  for (size_t k = 2; k < 6; ++k)
    sum += r["observables"][k]["mean_energy_eV"].get<double>();
  EXPECT_DOUBLE_EQ(energy["mean"].get<double>(), sum / 4);
  EXPECT_GT(energy["error"].get<double>(), 0.0);
  EXPECT_GT(r["real_collisions_per_s"].get<double>(), 0.0);
}

// A seed is a 64-bit key: the largest is accepted and recorded exactly, and gives another run
// than its neighbour.
TEST(Cli, RunTakesAnySixtyFourBitSeed) {
  TempDir dir;
  std::string digests[2];
  for (int k = 0; k < 2; ++k) {
    const std::string json = dir.path(fmt::format("r{}.json", k));
    const char* seed = k == 0 ? "18446744073709551615" : "18446744073709551614";
    const Outcome o = schedbench(run_args({"--split-chance", "5", "--seed", seed, "--json", json}));
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const nlohmann::json j = nlohmann::json::parse(slurp(json));
    EXPECT_EQ(j["config"]["seed"].get<uint64_t>(), k == 0 ? UINT64_MAX : UINT64_MAX - 1);
    digests[k] = j["result"]["digest"];
  }
  EXPECT_NE(digests[0], digests[1]);
}

// Counts are 64-bit: a capacity past 2^32 reaches the memory check whole (32 bits would make
// 10^13 a capacity of 1316134912, which fits), which refuses it by name before the run.
TEST(Cli, ACapacityNoMemoryHoldsIsRefusedWhole) {
  const Outcome o = schedbench(run_args({"--capacity", "1e13"}));
  EXPECT_EQ(o.exit_code, 3);
  EXPECT_NE(o.err.find("--capacity 10000000000000 needs "), std::string::npos) << o.err;
}

TEST(Cli, RunFailureIsExitThree) {
  const Outcome o = schedbench({"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n",
                                "100", "--steps", "2000", "--capacity", "150"});
  EXPECT_EQ(o.exit_code, 3);
  EXPECT_NE(o.err.find("capacity exceeded"), std::string::npos) << o.err;
}

// The images in a GIF file, read back with giflib.
int gif_images(const std::string& path) {
  int error = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
  if (gif == nullptr) return -1;
  const int images = DGifSlurp(gif) == GIF_OK ? gif->ImageCount : -1;
  DGifCloseFile(gif, &error);
  return images;
}

size_t pngs_in(const std::string& dir) {
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("frame_", 0) == 0 && entry.path().extension() == ".png") ++n;
  }
  return n;
}

TEST(Cli, FramesAreAPngPerFrameAndALoopingGif) {
  TempDir dir;
  const std::string frames = dir.path("frames");
  const Outcome o =
      schedbench({"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n", "200", "--layout",
                  "column", "--steps", "300", "--frames", frames, "--frame-every", "30"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(pngs_in(frames), 10u);
  EXPECT_EQ(slurp(frames + "/frame_009.png").substr(1, 3), "PNG");
  const std::string gif = slurp(frames + "/toy.gif");
  EXPECT_EQ(gif.substr(0, 6), "GIF89a");
  EXPECT_NE(gif.find("NETSCAPE2.0"), std::string::npos);
  EXPECT_EQ(gif_images(frames + "/toy.gif"), 10);
}

TEST(Cli, FramesWithoutFrameEveryAreAtMostAHundred) {
  TempDir dir;
  const std::string frames = dir.path("frames");
  const Outcome o = schedbench({"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n",
                                "20", "--steps", "250", "--frames", frames});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(pngs_in(frames), 50u);  // every 5 steps: 250 has no divisor from 51 to 100
  EXPECT_EQ(gif_images(frames + "/toy.gif"), 50);
}

// The digest line of `run` output.
std::string digest_line(const std::string& out) {
  const size_t at = out.find("digest");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

TEST(Cli, FramesKeepTheDigest) {
  TempDir dir;
  const std::vector<std::string> args = {"run",        "--sim",    "toy", "--scheduler",
                                         "cpu-openmp", "--init-n", "300", "--layout",
                                         "column",     "--steps",  "600"};
  const Outcome whole = schedbench(args);
  std::vector<std::string> framed_args = args;
  framed_args.insert(framed_args.end(), {"--frames", dir.path("frames"), "--frame-every", "60"});
  const Outcome framed = schedbench(framed_args);
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  ASSERT_EQ(framed.exit_code, 0) << framed.err;
  EXPECT_FALSE(digest_line(whole.out).empty()) << whole.out;
  EXPECT_EQ(digest_line(framed.out), digest_line(whole.out));
}

TEST(Cli, WholeValuesInScientificNotationAreWholeNumbers) {
  const Outcome o = schedbench(run_args({"--init-n", "1e2", "--capacity", "1E6"}));
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("100"), std::string::npos) << o.out;
}

// Numbers of the batch commands and the table command: one line, exit 2, nothing written.
TEST(Cli, BatchAndTableNumbersAreDecimalOnly) {
  TempDir dir;
  const std::string job = dir.write(
      "j.json",
      R"({"sims": ["mvp"], "schedulers": ["cpu-serial"], "axes": {"init_n": [1, 2, 3], "steps": 5}})");
  const std::string out = dir.path("out.json");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"sweep", job, "--out", out, "--shard", "0x1/2"}, "--shard: '0x1/2' is not I/N"},
      {{"sweep", job, "--out", out, "--gpus", "0,1e400"}, "--gpus: '0,1e400' is not a list"},
      {{"sweep", job, "--out", out, "--point-timeout", "nan"},
       "--point-timeout: 'nan' is not a number"},
      {{"sweep", job, "--list", "--max-points", "1.5"},
       "--max-points: '1.5' is not a whole number"},
      {{"sweep", job, "--list", "--max-points", "2"},
       "j.json: axes.init_n: 3 values; accepted: at most 2 (--max-points raises it)"},
      {{"submit", job, "--slurm", "--script", out, "--shards", "inf"},
       "--shards: 'inf' is not a whole"},
      {{"submit", job, "--slurm", "--script", out, "--max-points", "0x10"},
       "--max-points: '0x10' is not a whole"},
      {{"table", "--sim", "pic", "--out", out, "--collision-chance", "-inf"},
       "--collision-chance: '-inf' is not a number"},
  };
  for (const auto& [args, message] : cases) {
    const Outcome o = schedbench(args);
    EXPECT_EQ(o.exit_code, 2) << args.back() << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << args.back();
  }
  const Outcome raised = schedbench({"sweep", job, "--list", "--max-points", "3"});
  EXPECT_EQ(raised.exit_code, 0) << raised.err;
  EXPECT_NE(raised.out.find("3 points"), std::string::npos) << raised.out;
}

// `table` writes what a run of the sim reads: a table written and read back writes the same file.
TEST(Cli, TableWritesWhatTheSimReads) {
  TempDir dir;
  const std::string synthetic = dir.path("synthetic.txt"), again = dir.path("again.txt");
  const Outcome first = schedbench({"table", "--sim", "pic", "--out", synthetic});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("10000 levels, the seed's synthetic table"), std::string::npos)
      << first.out;
  const Outcome second =
      schedbench({"table", "--sim", "pic", "--cross-section", synthetic, "--out", again});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(slurp(again), slurp(synthetic));
  const Outcome constant =
      schedbench({"table", "--sim", "pic", "--collision-chance", "4", "--out", again});
  ASSERT_EQ(constant.exit_code, 0) << constant.err;
  EXPECT_NE(constant.out.find("split = remove = 2 %"), std::string::npos) << constant.out;
  EXPECT_NE(slurp(again), slurp(synthetic));
}

TEST(Cli, TableRefusesSimsWithoutOneAndForeignOptions) {
  TempDir dir;
  const std::string out = dir.path("t.txt");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"table", "--sim", "mvp", "--out", out},
       "--sim: mvp reads no table to write; accepted: pic"},
      {{"table", "--sim", "pic", "--out", out, "--steps", "5"},
       "--steps: sim pic does not read it"},
      {{"table", "--sim", "pic", "--out", out, "--init-n", "5"}, "--init-n"},
  };
  for (const auto& [args, message] : cases) {
    const Outcome o = schedbench(args);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

TEST(Cli, HelpExitsZero) {
  const Outcome o = schedbench({"run", "--help"});
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(o.out.find("--split-chance"), std::string::npos);
}

// A misspelt option is named, with the nearest option the command has, rather than reported as a
// required option missing.
TEST(Cli, AMisspeltOptionGetsTheNearestOne) {
  TempDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", "--sheduler", "naive", "--sim", "mvp"},
       "schedbench: error: --sheduler: not an option of run; did you mean --scheduler?\n"},
      {{"sweep", "job.json", "--gpu", "0"},
       "schedbench: error: --gpu: not an option of sweep; did you mean --gpus?\n"},
      {{"run", "--frobnicate=3"},
       "schedbench: error: --frobnicate: not an option of run; schedbench help run lists them\n"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> argv = {SCHEDBENCH_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    const testing_support::Outcome o = testing_support::run_program(argv, dir.path(""));
    EXPECT_EQ(o.exit_code, 2) << args[1];
    EXPECT_EQ(o.err, message);
  }
}

// help shows each option's kind of value and its range or choices, not TEXT for everything.
TEST(Cli, HelpShowsEachOptionsTypeAndRange) {
  const Outcome o = schedbench({"help", "run"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  for (const char* shown : {"--init-n WHOLE:1..", "--split-chance REAL:0..100",
                            "--layout {center,column}", "--blocks-per-sm WHOLE:1..32|fill"})
    EXPECT_NE(o.out.find(shown), std::string::npos) << shown << "\n" << o.out;
}

}  // namespace
}  // namespace sb
