// static-iterate and static-iterate-coop (seed 003 §3.1.3, "Static Simple Iterate"): one
// launch per step of a persistent grid sized from the device; each thread takes a fixed stride
// of the particles. The -coop variant is launched through the cooperative API, to measure what
// that launch costs (seed §5.1.2).
#pragma once

#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/step_once.cuh"

namespace sb {

template <class Sim, int kBound>
__global__ void SB_BLOCK_BOUND(kBound) static_iterate_step(DevicePhase<Sim> ph, uint32_t t) {
  const SlotIndex stride = grid_threads();
  const SlotIndex n = claimed(ph);
  for (SlotIndex i = grid_thread_index(); i < n && i < ph.capacity; i += stride) {
    typename Sim::Particle* slot = ph.particles + i;
    if (!is_published(slot)) continue;  // a spawn of this step, not written yet
    typename Sim::Particle p = *slot, child;
    if (!has_work(p.tag, ph.window) || p.tag.step != t) continue;
    const bool spawned = step_once(ph, p, child);
    *slot = p;
    if (spawned) spawn(ph, child);
  }
}

template <class Sim, bool kCooperative>
class StaticIterate {
 public:
  explicit StaticIterate(const DeviceSetup& s)
      : s_(s),
        step_(kernel_for_block(static_iterate_step<Sim, kAnyBlock>,
                               static_iterate_step<Sim, kLargestBlockBound<Sim>>, s)),
        grid_(persistent_grid(step_, s)) {}

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex) {
    for (uint32_t t = ph.window.start; t < ph.window.end; ++t) {
      s_.watchdog.check();
      if constexpr (kCooperative) {
        launch_cooperative(step_, grid_, s_.knobs.block_size, 0, s_.stream, ph, t);
      } else {
        launch(s_, step_, grid_, 0, ph, t);
      }
    }
  }

 private:
  const DeviceSetup& s_;
  void (*step_)(DevicePhase<Sim>, uint32_t);
  uint32_t grid_;
};

}  // namespace sb
