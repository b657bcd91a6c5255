// Every option of every shipped sim as a table: each row sets one of a sim's declared parameters
// (or the run's seed) on that sim's small base run, with the companions the value needs. The
// engine tests run every row on every engine against cpu-serial, so that an option whose draws
// or arithmetic differ between host and device shows, whichever option it is; the table's own
// test fails for a parameter that no row covers, so a new option cannot be left out.
#pragma once

#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"
#include "core/run_parameters.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "sims/catalog.hpp"
#include "tests/support/air_config.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb::option_table {

// A parameter's key and a value, as a job file gives them.
using Setting = std::pair<std::string, std::string>;

struct Row {
  std::string sim;
  std::string key;  // one of the sim's parameters, or "seed"
  // The values to run; none: every choice other than the base run's, or a switch turned on.
  std::vector<std::string> values;
  std::vector<Setting> with;   // what a value needs beside it
  bool changes_result = true;  // false: the same final particles as the base run, by design
};

struct Case {
  std::string name;  // sim_key_value, letters, digits and '_'
  RunConfig run;
  bool changes_result;  // its particles differ from its sim's base run's
};

// GoogleTest names a case by this instead of dumping its bytes.
inline void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

// A cross-section file of pic's format (one line of split and remove percent per energy level)
// whose chances vary with the level, written once per process into a folder removed at its exit.
inline const std::string& pic_table() {
  static const testing_support::TempDir dir;
  static const std::string path = [] {
    const std::string p = dir.path("pic-table.txt");
    std::ofstream out(p);
    for (int level = 0; level < 10000; ++level)
      out << 4 + level % 7 << ',' << 3 + level % 5 << '\n';
    return p;
  }();
  return path;
}

// A data file of the source tree (data/...): in the sources the test was built from, else two
// folders above the test program (build/bin/.., where the binaries travel without their sources).
inline std::string source_file(const std::string& relative) {
  namespace fs = std::filesystem;
  const fs::path built = fs::path(SCHEDBENCH_SOURCE_DIR) / relative;
  std::error_code error;
  if (fs::is_regular_file(built, error)) return built.string();
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  return (exe.parent_path() / ".." / ".." / relative).lexically_normal().string();
}

// The sims' small base runs: each at most a few thousand particle lifetimes, so that a row runs in
// well under a second on any engine.
inline RunConfig base_run(const std::string& sim) {
  RunConfig c;
  c.sim = sim;
  c.capacity = 200'000;  // huge-iterate's grid spans the capacity at every step
  launch_knobs::timeout().set(c, 30);
  const SimInfo& info = find_sim(sim);
  const auto set = [&](const std::string& key, const std::string& value) {
    for (const DeclaredParameter* p : info.parameters) {
      if (p->key == key) p->set(c, value);
    }
  };
  if (sim == "toy") {
    c.init_n = 60;
    set("steps", "300");
  } else if (sim == "mvp") {
    c.init_n = 300;
    set("steps", "100");
    set("split_chance", "2");
  } else if (sim == "pic") {
    c.init_n = 300;
    set("poisson_steps", "2");
    set("mobility_steps", "40");
  } else if (sim == "air") {
    c.init_n = 200;
    c = with_air(c, "N2:0.8,O2:0.2", 300, 2);
  } else if (sim == "ccp") {
    c.init_n = 600;
    set("cells", "16");
    set("steps_per_period", "150");
    set("periods", "2");
    set("average_periods", "1");
  }
  return c;
}

// The rows. Numbers and texts name their values; choices and switches take every value.
inline std::vector<Row> rows() {
  const std::vector<Setting> space_charge = {
      {"space_charge", "true"}, {"init_radius", "5e-6"}, {"field_solver", "host"}};
  const auto plus = [](std::vector<Setting> a, const std::vector<Setting>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  return {
      {"toy", "steps", {"450"}, {}},
      {"toy", "layout", {}, {}},
      // Phases of 50 steps: toy draws nothing, so its particles are those of one phase.
      {"toy", "frame_every", {"50"}, {}, false},
      {"toy", "seed", {"2718"}, {}, false},  // toy draws no random numbers
      {"mvp", "steps", {"170"}, {}},
      {"mvp", "split_chance", {"3.5"}, {}},
      {"mvp", "skip_spawned", {}, {}},
      {"mvp", "seed", {"2718"}, {}},
      {"pic", "poisson_steps", {"3"}, {}},
      {"pic", "mobility_steps", {"70"}, {}},
      {"pic", "cross_section", {pic_table()}, {}},
      {"pic", "collision_chance", {"30"}, {}},
      // The Poisson field solved on the host (FFTW, as cpu-serial): a device solve (cuFFT) rounds
      // otherwise, and the GPU tests compare those runs among the GPU schedulers.
      {"pic", "field", {}, {{"grid", "16"}, {"field_solver", "host"}}},
      {"pic", "grid", {"32"}, {{"field", "poisson"}, {"field_solver", "host"}}},
      {"pic", "field_solver", {"host"}, {{"field", "poisson"}, {"grid", "16"}}},
      {"pic", "precision", {}, {}},
      {"pic", "seed", {"2718"}, {}},
      {"air", "gas", {"N2:0.7,O2:0.25,Ar:0.05"}, {}},
      {"air", "pressure", {"3"}, {}},
      {"air", "temperature", {"500"}, {}},
      {"air", "electric_field", {"8e6"}, {{"reduced_field", ""}}},
      {"air", "reduced_field", {"140"}, {}},
      {"air", "magnetic_field", {"20"}, {}},
      {"air", "field_angle", {"60"}, {{"magnetic_field", "20"}}},
      {"air", "thermal_gas", {}, {}},
      {"air",
       "cross_section",
       {source_file("data/swarm/lucas-saelee-f1.txt")},
       {{"gas", "lucas-saelee-f1:1"}, {"reduced_field", "10"}}},
      {"air", "phases", {"3"}, {}},
      {"air", "phase_time", {"7e-12"}, {}},
      {"air", "extrapolate", {}, {{"max_energy", "1000"}}},
      {"air", "max_energy", {"1000"}, {}},
      {"air", "init_radius", {"1e-5"}, {}},
      {"air", "ionization_sharing", {}, {}},
      // Three-body attachment: O2's TIMES_N cross section, which needs O2 at a low field.
      {"air", "three_body_density", {}, {{"reduced_field", "20"}, {"pressure", "5"}}},
      {"air", "space_charge", {}, {{"init_radius", "5e-6"}, {"field_solver", "host"}}},
      {"air", "grid", {"32"}, space_charge},
      {"air", "field_solver", {"host"}, plus({{"grid", "16"}}, {space_charge[0], space_charge[1]})},
      {"air", "precision", {}, {}},
      {"air", "seed", {"2718"}, {}},
      {"ccp", "case", {"2", "3", "4"}, {}},
      {"ccp", "gap", {"0.05"}, {}},
      {"ccp", "rf_frequency", {"2e7"}, {}},
      {"ccp", "rf_voltage", {"300"}, {}},
      {"ccp", "gas_density", {"3e21"}, {}},
      {"ccp", "gas_temperature", {"600"}, {}},
      {"ccp", "cells", {"24"}, {}},
      {"ccp", "steps_per_period", {"120"}, {}},
      {"ccp", "periods", {"3"}, {}},
      // The window averaged: the summary changes, the particles do not.
      {"ccp", "average_periods", {"2"}, {}, false},
      {"ccp", "plasma_density", {"5e14"}, {}},
      {"ccp", "electron_temperature", {"50000"}, {}},
      {"ccp", "replicas", {"2", "3"}, {}},
      {"ccp", "seed", {"2718"}, {}},
  };
}

// The declaration of `key` for `sim` (the run's seed, or one of the sim's own).
inline const DeclaredParameter& declaration(const SimInfo& sim, const std::string& key) {
  if (key == every_run::seed().key) return every_run::seed();
  for (const DeclaredParameter* p : sim.parameters) {
    if (p->key == key) return *p;
  }
  throw std::logic_error("option table: " + sim.name + " has no parameter " + key);
}

// The values a row runs: its own, or every choice other than the base run's, or a switch on.
inline std::vector<std::string> values(const Row& row, const RunConfig& base) {
  if (!row.values.empty()) return row.values;
  const DeclaredParameter& p = declaration(find_sim(row.sim), row.key);
  if (p.kind == ValueKind::kSwitch) return {"true"};
  if (p.kind != ValueKind::kChoice) {
    throw std::logic_error("option table: " + row.sim + " " + row.key + " needs values");
  }
  std::vector<std::string> out;
  for (const std::string& choice : p.choices) {
    if (choice != p.text(base)) out.push_back(choice);
  }
  return out;
}

inline std::string case_name(const Row& row, const std::string& value) {
  std::string name = row.sim + "_" + row.key + "_" + value;
  if (value.find('/') != std::string::npos) name = row.sim + "_" + row.key + "_file";
  for (char& ch : name)
    ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

// Every row's runs.
inline std::vector<Case> cases() {
  std::vector<Case> out;
  for (const Row& row : rows()) {
    const SimInfo& sim = find_sim(row.sim);
    const RunConfig base = base_run(row.sim);
    for (const std::string& value : values(row, base)) {
      RunConfig c = base;
      for (const auto& [key, companion] : row.with) {
        if (companion.empty()) {
          declaration(sim, key).clear(c);
        } else {
          declaration(sim, key).set(c, companion);
        }
      }
      declaration(sim, row.key).set(c, value);
      out.push_back({case_name(row, value), c, row.changes_result});
    }
  }
  return out;
}

// The parameters of shipped sims that no row sets: none, or the table is out of date.
inline std::vector<std::string> uncovered() {
  std::set<std::string> covered;
  for (const Row& row : rows())
    covered.insert(row.sim + " " + row.key);
  std::vector<std::string> out;
  for (const SimInfo& sim : all_sims()) {
    for (const DeclaredParameter* p : sim.parameters) {
      if (!covered.count(sim.name + " " + p->key)) out.push_back(sim.name + " " + p->key);
    }
    if (!covered.count(sim.name + " seed")) out.push_back(sim.name + " seed");
  }
  return out;
}

}  // namespace sb::option_table
