#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/static_iterate.cuh"

namespace sb {
namespace {

template <class Sim>
using StaticIterateCoop = StaticIterate<Sim, true>;

}  // namespace

SchedulerEntry static_iterate_coop_entry() {
  return {"static-iterate-coop",
          "static-iterate launched through the cooperative-groups API (seed §3.1.3, §5.1.2)",
          SchedulerKind::kGpu, launch_knobs::grid_shape(), device_runners<StaticIterateCoop>()};
}

}  // namespace sb
