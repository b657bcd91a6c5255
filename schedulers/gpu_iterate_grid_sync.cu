#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/gpu_iterate.cuh"

namespace sb {
namespace {

template <class Sim>
using GpuIterateGridSync = GpuIterate<Sim, GridSyncBarrier>;

}  // namespace

SchedulerEntry gpu_iterate_grid_sync_entry() {
  return {"gpu-iterate-grid-sync",
          "one cooperative kernel, a step at a time; grid barrier: cooperative groups grid.sync() "
          "(seed §3.1.7)",
          SchedulerKind::kGpu, launch_knobs::grid_shape(), device_runners<GpuIterateGridSync>()};
}

}  // namespace sb
