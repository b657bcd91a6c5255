// Everything that defines one run: what every run has, the sim's own parameters (declared by the
// sim: Sim::parameters()), and the knobs of the run machinery (SchedulerEntry::parameters).
#pragma once

#include <cstdint>
#include <map>
#include <string>

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

  // The sim's own parameters as given, by key: checked, canonical text. The sim declares them
  // and reads them through its declarations (core/sim_parameter.hpp), which hold the defaults.
  std::map<std::string, std::string> sim_values;
  // For a sim that draws frames (--frames): phases of this many steps, each phase end a frame;
  // 0: one phase. It changes when pictures are taken, never the result.
  uint32_t frame_every = 0;

  // The run machinery's: block_size and blocks_per_sm size every GPU grid, the watchdog and the
  // compaction belong to the GPU driver every GPU scheduler shares, warp_sync and policy to the
  // schedulers that list them (SchedulerEntry::parameters).
  uint32_t block_size = 128;
  uint32_t blocks_per_sm = 0;          // 0 = fill: the occupancy maximum
  bool warp_sync = false;              // static-full: __syncwarp after each particle
  double timeout_s = 600;              // watchdog: a GPU run still going after this fails
  std::string compaction = "inplace";  // GPU removal of the dead: simple, block, warp, cub, inplace
  std::string policy = "default";      // tuning policy (schedulers/policy.hpp)
};

// One line naming a run, for messages: "mvp with dynamic-warp (init_n 1000, 1 x 100 steps, ...)".
std::string describe(const RunConfig& c, uint32_t phases, uint32_t steps_per_phase);

}  // namespace sb
