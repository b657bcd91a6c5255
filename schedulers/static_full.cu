// static-full (seed 003 §3.1.8 "Static GPU Full", §3.3.3 "Static"): one persistent kernel; thread
// k owns slots k, k + G, k + 2G, ... (G threads), waits for each to be published, runs its
// particle to the end of the phase, and counts finished particles into `done` only before it
// waits. --warp-sync adds the seed's __syncwarp over the working lanes after each particle.
// Static ownership needs every thread resident, so the kernel is launched cooperatively.
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

const DeclaredParameter& warp_sync() {
  static const DeclaredParameter p =
      switch_parameter("warp_sync", "--warp-sync",
                       "static-full: synchronise each warp after every particle", "warp sync");
  return p;
}

template <class Sim, int kBound>
__global__ void SB_BLOCK_BOUND(kBound) static_full(DevicePhase<Sim> ph, bool warp_sync) {
  const SlotIndex stride = grid_threads();
  unsigned int finished = 0;
  for (SlotIndex i = grid_thread_index(); i < ph.capacity; i += stride) {
    typename Sim::Particle* slot = ph.particles + i;
    if (!await_slot(ph, slot, finished)) return;
    const unsigned int working = __activemask();
    typename Sim::Particle p = *slot;
    run_to_end_spawning(ph, p);
    *slot = p;
    if (warp_sync) __syncwarp(working);
    ++finished;
  }
  if (finished > 0) count_done(ph, finished);
}

template <class Sim>
class StaticFull {
 public:
  explicit StaticFull(const DeviceSetup& s)
      : s_(s),
        kernel_(kernel_for_block(static_full<Sim, kWholePhaseBound<Sim>>,
                                 static_full<Sim, kLargestBlockBound<Sim>>, s)),
        grid_(persistent_grid(kernel_, s)),
        warp_sync_(warp_sync().on(s.config)) {}

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex) {
    launch_cooperative(kernel_, grid_, s_.knobs.block_size, 0, s_.stream, ph, warp_sync_);
  }

 private:
  const DeviceSetup& s_;
  void (*kernel_)(DevicePhase<Sim>, bool);
  uint32_t grid_;
  bool warp_sync_;
};

}  // namespace

SchedulerEntry static_full_entry() {
  return {"static-full",
          "one persistent kernel, each thread a fixed stride of slots, each particle to the end "
          "(seed §3.1.8, §3.3.3)",
          SchedulerKind::kGpu,
          launch_knobs::grid_shape(),
          device_runners<StaticFull>(),
          {},
          {&warp_sync()}};
}

}  // namespace sb
