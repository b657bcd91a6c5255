// What the harness knows of each sim of sims/registry.hpp without compiling it: its name, what it
// is, which parameters it reads, its own checks, and whether it draws pictures.
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
  DeclaredParameters parameters;    // its own, beyond init_n, capacity and seed
  void (*check)(const RunConfig&);  // throws UsageError where the sim rejects a value
  bool has_picture;                 // draws its particles (--density-png)
  bool draws_frames;                // runs in phases of frame_every steps (--frames)
  uint32_t (*phase_count)(const RunConfig&);
  SimTable (*table)(const RunConfig&);  // the table a run reads (`schedbench table`); null: none
};

// Every sim, in registry order.
const std::vector<SimInfo>& all_sims();

// Whether the sim reads the parameter `key`.
bool reads(const SimInfo& sim, const std::string& key);

// The sim called `name`; UsageError naming the accepted names if there is none.
const SimInfo& find_sim(const std::string& name);

}  // namespace sb
