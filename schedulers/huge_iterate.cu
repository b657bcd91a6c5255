// huge-iterate (seed 003 §3.1.2): one launch per step over the whole capacity, queued without
// waiting on the host. A thread skips slots past the count, slots not yet published, and
// particles born in this step.
#include "core/grid_shape.hpp"
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

template <class Sim, int kBound>
__global__ void SB_BLOCK_BOUND(kBound) huge_iterate_step(DevicePhase<Sim> ph, uint32_t t) {
  const SlotIndex i = grid_thread_index();
  if (i >= claimed(ph) || i >= ph.capacity) return;
  typename Sim::Particle* slot = ph.particles + i;
  if (!is_published(slot)) return;  // claimed by a spawn of this step, not written yet
  typename Sim::Particle p = *slot, child;
  if (!has_work(p.tag, ph.window) || p.tag.step != t) return;
  const bool spawned = step_once(ph, p, child);
  *slot = p;
  if (spawned) spawn(ph, child);
}

template <class Sim>
class HugeIterate {
 public:
  explicit HugeIterate(const DeviceSetup& s)
      : s_(s),
        step_(kernel_for_block(huge_iterate_step<Sim, kAnyBlock>,
                               huge_iterate_step<Sim, kLargestBlockBound<Sim>>, s)) {}

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex) {
    const uint32_t grid = blocks_for(ph.capacity, s_.knobs.block_size);
    for (uint32_t t = ph.window.start; t < ph.window.end; ++t) {
      s_.watchdog.check();
      launch(s_, step_, grid, 0, ph, t);
    }
  }

 private:
  const DeviceSetup& s_;
  void (*step_)(DevicePhase<Sim>, uint32_t);
};

}  // namespace

SchedulerEntry huge_iterate_entry() {
  return {"huge-iterate",
          "a launch per step over the whole capacity, no host synchronisation (seed §3.1.2)",
          SchedulerKind::kGpu,
          {&launch_knobs::block_size()},
          device_runners<HugeIterate>()};
}

}  // namespace sb
