#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/gpu_iterate.cuh"

namespace sb {
namespace {

template <class Sim>
using GpuIterateThreadCounting = GpuIterate<Sim, ThreadCountingBarrier>;

}  // namespace

SchedulerEntry gpu_iterate_global_entry() {
  return {"gpu-iterate-global",
          "one cooperative kernel, a step at a time; grid barrier: every thread arrives on one "
          "device-wide counter (seed §3.1.5)",
          SchedulerKind::kGpu, launch_knobs::grid_shape(),
          device_runners<GpuIterateThreadCounting>()};
}

}  // namespace sb
