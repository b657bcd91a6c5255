// Everything that defines one run. Which fields a sim or scheduler reads is declared next to it
// (Sim::kParameters, SchedulerEntry::parameters); harness/job/parameters.cpp validates them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sb {

// Upper bound for particle counts and steps: device counters and step fields are 32-bit.
inline constexpr uint64_t kMaxCount = 2147483647;

struct RunConfig {
  std::string sim;
  std::string scheduler;

  // Every sim.
  uint64_t init_n = 0;
  uint64_t capacity = 100'000'000;
  uint64_t seed = 1;

  // toy, mvp
  uint32_t steps = 0;
  std::string layout = "center";  // toy: "center" or "column"
  double split_chance = 0.02;     // mvp: percent per step
  bool skip_spawned = false;      // mvp: spawned particles are stored but not simulated
  // toy: phases of this many steps, so that each phase end is a frame (--frames); 0: one phase.
  // Not a parameter of the table: it changes when pictures are taken, never the result.
  uint32_t frame_every = 0;

  // pic
  uint32_t poisson_steps = 0;
  uint32_t mobility_steps = 0;
  std::string cross_section;     // file of split and remove percent per energy level
  double collision_chance = -1;  // percent; 0 to 100 replaces the table: split = remove = c / 2

  // air (sims/air/air.hpp; harness/job/parameters.cpp gives units and meanings)
  std::string gas = "N2:0.8,O2:0.2";
  double pressure = 1;        // bar
  double temperature = 300;   // K
  double field = -1;          // V/m; below 0: not given
  double reduced_field = -1;  // Td; below 0: not given
  double magnetic_field = 0;  // T
  double field_angle = 0;     // degrees between E and B
  bool thermal_gas = false;
  std::string cross_sections;  // LXCat file; empty: data/lxcat-siglo.txt
  uint32_t phases = 10;
  double phase_time = 1e-10;  // s
  std::string extrapolate = "error";
  double max_energy = 0;  // eV; 0: the smallest top of the species' elastic tables

  // GPU schedulers
  uint32_t block_size = 128;
  uint32_t blocks_per_sm = 0;          // 0 = fill: the occupancy maximum
  bool warp_sync = false;              // static-full: __syncwarp after each particle
  double timeout_s = 600;              // watchdog: a GPU run still going after this fails
  std::string compaction = "inplace";  // GPU removal of the dead: simple, block, warp, cub, inplace
  std::string policy = "default";      // tuning policy (schedulers/policy.hpp)
};

// The ways GPU drivers remove dead particles (schedulers/device/compaction.cuh).
inline const std::vector<std::string>& compaction_variants() {
  static const std::vector<std::string> names = {"simple", "block", "warp", "cub", "inplace"};
  return names;
}

// One line naming a run, for messages: "mvp with dynamic-warp (init_n 1000, 1 x 100 steps, ...)".
std::string describe(const RunConfig& c, uint32_t phases, uint32_t steps_per_phase);

}  // namespace sb
