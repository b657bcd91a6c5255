#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/gpu_iterate.cuh"

namespace sb {
namespace {

template <class Sim>
using GpuIterateBlockCounting = GpuIterate<Sim, BlockCountingBarrier>;

}  // namespace

SchedulerEntry gpu_iterate_organised_entry() {
  return {"gpu-iterate-organised",
          "one cooperative kernel, a step at a time; grid barrier: one thread per block arrives on "
          "the counter (seed §3.1.6)",
          SchedulerKind::kGpu, launch_knobs::grid_shape(),
          device_runners<GpuIterateBlockCounting>()};
}

}  // namespace sb
