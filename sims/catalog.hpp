// What the harness knows of each sim of sims/registry.hpp, and of a project's own sims, without
// compiling them: its name, what it is, which parameters it reads, its own checks, and whether it
// draws pictures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"
#include "core/sim_interface.hpp"

namespace sb {

struct SimInfo {
  std::string name;
  std::string description;
  DeclaredParameters parameters;  // its own, beyond those of every run (core/run_parameters.hpp)
  // Builds the setup of a run and drops it: throws UsageError where the sim rejects a value (a
  // run builds it once, schedulers/registry.hpp resolve()).
  void (*check)(const RunConfig&);
  // Whether the run's variant may run in batches (--batch): its grid work between phases, if
  // any, streams (kStreams, core/sim_state.hpp).
  bool (*streams)(const RunConfig&);
  bool has_picture;  // draws its particles (--density-png)
  // Where it draws frames (--frames), its steps per frame (one of its parameters); null: none.
  const DeclaredParameter* frame_every;
  SimTable (*table)(const RunConfig&);  // the table a run reads (`schedbench table`); null: none
  // The observable counting its real events per phase, whose rate `run` reports; null: none.
  const char* work_observable;
};

// Every sim: the shipped ones in registry order, then those a project's build added.
const std::vector<SimInfo>& all_sims();

// Adds a project's own sims to the catalog (sim_infos, sims/catalog_entry.hpp), before main runs:
// cmake/project_runs.cpp calls it from a static initialiser. all_sims() throws std::logic_error
// where one has a shipped sim's name.
void add_sims(std::vector<SimInfo> more);

// Whether the sim reads the parameter `key`.
bool reads(const SimInfo& sim, const std::string& key);

// The sim called `name`; UsageError naming the accepted names if there is none.
const SimInfo& find_sim(const std::string& name);

// The sim called `name`, or null.
const SimInfo* listed_sim(const std::string& name);

}  // namespace sb
