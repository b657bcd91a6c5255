// The one parameter model (docs/design.md §9): every knob is one declaration, owned by the code
// that reads it; the table of parameters is made from those declarations only, each key means one
// thing, and keys that were renamed still read.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/run_parameters.hpp"
#include "core/values.hpp"
#include "harness/io/json_file.hpp"
#include "harness/job/parameters.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog.hpp"

namespace sb {
namespace {

// The row whose declarations hold `d` itself, or null.
const Parameter* row_declaring(const DeclaredParameter* d) {
  for (const Parameter& p : parameters()) {
    for (const auto& [owner, declared] : p.declarations) {
      if (declared == d) return &p;
    }
  }
  return nullptr;
}

void expect_rows(const std::string& owner, const DeclaredParameters& declared) {
  for (const DeclaredParameter* d : declared) {
    const Parameter* row = row_declaring(d);
    ASSERT_NE(row, nullptr) << owner << " points to " << d->key << ", which no row declares";
    EXPECT_EQ(row->key, d->key) << owner;
    EXPECT_EQ(row->flag, d->flag) << owner;
  }
}

// An entry points to declarations; each is a row of the table, under its own key and option.
TEST(Parameters, EveryDeclarationAnEntryPointsToIsARow) {
  expect_rows("every run", every_run::parameters());
  expect_rows("the GPU driver", launch_knobs::every_gpu_run());
  for (const SimInfo& s : all_sims())
    expect_rows(s.name, s.parameters);
  for (const SchedulerEntry& e : all_schedulers()) {
    expect_rows(e.name, e.launch);
    expect_rows(e.name, e.own_parameters());
  }
}

// One key, one option, one kind: no two rows share an option, and the owners of a key that
// several declare (air's and pic's --grid) take values of one kind.
TEST(Parameters, OneKeyOneOptionOneKind) {
  std::set<std::string> keys, flags;
  for (const Parameter& p : parameters()) {
    EXPECT_TRUE(keys.insert(p.key).second) << p.key;
    EXPECT_TRUE(flags.insert(p.flag).second) << p.flag;
    for (const auto& [owner, d] : p.declarations)
      EXPECT_EQ(d->kind, p.declarations.front().second->kind) << p.key << " of " << owner;
  }
  // pic's --field is its field model; air's field strength has a key of its own.
  const Parameter* field = find_parameter("field");
  ASSERT_NE(field, nullptr);
  for (const auto& [owner, d] : field->declarations)
    EXPECT_EQ(owner, "pic");
  ASSERT_NE(find_parameter("cross_section"), nullptr);
  EXPECT_EQ(find_parameter("cross_sections"), nullptr);
}

// Old keys of renamed parameters read as the new ones, for the sim that renamed them only.
TEST(Parameters, RenamedKeysReadAsTheNewOnes) {
  const nlohmann::json old = {{"sim", "air"},
                              {"scheduler", "cpu-serial"},
                              {"init_n", 5},
                              {"field", 3e6},
                              {"cross_sections", "data/lxcat-siglo.txt"}};
  const RunConfig c = config_from_json(old, "old.json");
  const nlohmann::json now = config_json(c);
  EXPECT_EQ(now.at("electric_field"), 3e6);
  EXPECT_EQ(now.at("cross_section"), "data/lxcat-siglo.txt");
  EXPECT_FALSE(now.contains("field"));
  EXPECT_FALSE(now.contains("cross_sections"));
  nlohmann::json pic = {{"sim", "pic"},       {"scheduler", "cpu-serial"}, {"init_n", 5},
                        {"poisson_steps", 1}, {"mobility_steps", 1},       {"field", "poisson"}};
  EXPECT_EQ(config_json(config_from_json(pic, "pic")).at("field"), "poisson");
  pic["cross_sections"] = "x";  // air's old key, which pic never had
  EXPECT_THROW(config_from_json(pic, "pic"), UsageError);
}

// What every run has is typed members of RunConfig, the GPU driver's knobs are the driver's
// declared values, read once a run into LaunchKnobs: both set and recorded through their
// declarations.
TEST(Parameters, TypedMembersAndTheDriversKnobsAreSetAndRecordedThroughTheirDeclarations) {
  RunConfig c;
  c.sim = "mvp";
  c.scheduler = "dynamic-warp";
  find_parameter("init_n")->set(c, "--init-n", "1e3");
  find_parameter("block_size")->set(c, "--block-size", "256");
  find_parameter("blocks_per_sm")->set(c, "--blocks-per-sm", "4");
  find_parameter("timeout")->set(c, "--timeout", "30");
  find_parameter("compaction")->set(c, "--compaction", "cub");
  EXPECT_EQ(c.init_n, 1000u);
  const LaunchKnobs k = launch_knobs::of(c);
  EXPECT_EQ(k.block_size, 256u);
  EXPECT_EQ(k.blocks_per_sm, 4u);
  EXPECT_EQ(k.timeout_s, 30.0);
  EXPECT_EQ(k.compaction, "cub");
  EXPECT_EQ(k.batch, 0u);  // auto, the default
  find_parameter("blocks_per_sm")->set(c, "--blocks-per-sm", "fill");
  EXPECT_EQ(launch_knobs::of(c).blocks_per_sm, 0u);
  steps_parameter().set(c, 5);
  const nlohmann::json j = config_json(c);
  EXPECT_EQ(j.at("blocks_per_sm"), "fill");
  EXPECT_EQ(j.at("block_size"), 256);
  EXPECT_EQ(j.at("timeout"), 30.0);
  EXPECT_EQ(config_json(config_from_json(j, "j")), j);
}

// Every run recorded in the repository's results reads back as a configuration: committed results
// keep working as parameters are renamed.
TEST(Parameters, EveryCommittedResultReadsBack) {
  size_t configs = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(
           std::string(SCHEDBENCH_SOURCE_DIR) + "/results")) {
    // Google Benchmark's own reports (*.gbench.json) are no results of ours.
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".json" || name.find(".gbench.") != std::string::npos) continue;
    const nlohmann::json doc = read_json_file(e.path().string(), "results");
    if (!doc.is_object()) continue;
    nlohmann::json points = doc.value("points", nlohmann::json::array());
    if (doc.contains("config")) points.push_back(doc);  // one run's record (`run --json`)
    for (const nlohmann::json& point : points) {
      if (!point.contains("config") || !point["config"].contains("scheduler")) continue;
      try {
        config_from_json(point["config"], e.path().string());
        ++configs;
      } catch (const std::exception& err) {
        ADD_FAILURE() << err.what();
      }
    }
  }
  EXPECT_GE(configs, 1000u);
}

// A list's pieces, an empty one included wherever it stands, so that the list's reader refuses
// it: "N2:0.8,O2:0.2," or "--gpus 0," is never the list without its last piece.
TEST(Values, SplitKeepsEveryPiece) {
  EXPECT_EQ(split("a,b", ','), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(split("a,b,", ','), (std::vector<std::string>{"a", "b", ""}));
  EXPECT_EQ(split(",a", ','), (std::vector<std::string>{"", "a"}));
  EXPECT_EQ(split("a,,b", ','), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(split(",", ','), (std::vector<std::string>{"", ""}));
  EXPECT_TRUE(split("", ',').empty());
}

}  // namespace
}  // namespace sb
