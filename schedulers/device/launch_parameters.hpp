// The GPU driver's knobs (schedulers/device/driver.cuh): the grid shape that a scheduler sizes its
// launches with, which each scheduler's entry lists where it reads them (SchedulerEntry::launch),
// and the watchdog, the removal of the dead and the batches, which every GPU run has. Their values
// are the run's declared values (core/run_config.hpp), read once a run into LaunchKnobs.
#pragma once

#include <cstdint>
#include <string>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"

namespace sb {

// A GPU run's knobs, typed: what the driver and its schedulers read.
struct LaunchKnobs {
  uint32_t block_size;     // threads per block
  uint32_t blocks_per_sm;  // resident blocks per SM; 0 = fill: the occupancy maximum
  double timeout_s;        // the watchdog: a GPU run still going after this fails
  std::string compaction;  // how the dead are removed: simple, block, warp, cub, inplace
  uint64_t batch;          // device slots per batch of a streamed run; 0 = auto: only past the device
};

// One line naming a GPU run, for messages: "mvp with dynamic-warp (init_n 1000, 1 x 100 steps,
// ..., block size 128, blocks per SM fill)".
std::string describe(const RunConfig& c, const LaunchKnobs& k, uint32_t phases,
                     uint32_t steps_per_phase);

}  // namespace sb

namespace sb::launch_knobs {

const DeclaredParameter& block_size();     // threads per block
const DeclaredParameter& blocks_per_sm();  // resident blocks per SM; fill (0): the occupancy most
const DeclaredParameter& timeout();        // the watchdog's seconds
const DeclaredParameter& compaction();     // how the dead are removed (compaction.cuh)
const DeclaredParameter& batch();          // device slots per batch of a streamed run (batches.cuh)

// The grid shape's knobs, for an entry that reads both.
DeclaredParameters grid_shape();
// What every GPU run reads, whatever its scheduler: the watchdog, the compaction and the batches.
DeclaredParameters every_gpu_run();

// The run's knobs, each its value or its default.
LaunchKnobs of(const RunConfig& c);

// Refuses a streamed run (--batch, docs/design.md §11) of a sim variant whose grid work between
// phases needs every particle on the device at once (`streams` false): a UsageError.
void check_batch(const RunConfig& c, bool streams);

}  // namespace sb::launch_knobs
