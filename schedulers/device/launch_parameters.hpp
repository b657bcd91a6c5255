// The GPU driver's knobs (schedulers/device/driver.cuh): the grid shape that a scheduler sizes its
// launches with, which each scheduler's entry lists where it reads them (SchedulerEntry::launch),
// and the watchdog and the removal of the dead, which every GPU run has. Their values live in
// RunConfig's typed members (core/run_config.hpp).
#pragma once

#include "core/declared_parameter.hpp"

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

}  // namespace sb::launch_knobs
