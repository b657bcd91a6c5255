#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/static_iterate.cuh"

#include "schedulers/entries.hpp"

namespace sb {
namespace {

template <class Sim>
using StaticIteratePlain = StaticIterate<Sim, false>;

}  // namespace

SchedulerEntry static_iterate_entry() {
  return {"static-iterate",
          "a launch per step of a device-sized grid, each thread a fixed stride of particles "
          "(seed §3.1.3)",
          SchedulerKind::kGpu, launch_knobs::grid_shape(), device_runners<StaticIteratePlain>()};
}

}  // namespace sb
