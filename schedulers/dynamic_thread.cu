// dynamic-thread (seed 003 §3.1.9): one persistent kernel; each thread takes the next slot from
// a global counter, waits for it to be published, and runs its particle to the end of the phase.
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

template <class Sim, int kBound>
__global__ void SB_BLOCK_BOUND(kBound) dynamic_thread(DevicePhase<Sim> ph) {
  run_published_slots(ph, 0, ph.capacity);
}

template <class Sim>
class DynamicThread {
 public:
  explicit DynamicThread(const DeviceSetup& s)
      : s_(s),
        kernel_(kernel_for_block(dynamic_thread<Sim, kWholePhaseBound<Sim>>,
                                 dynamic_thread<Sim, kLargestBlockBound<Sim>>, s)),
        grid_(persistent_grid(kernel_, s)) {}

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex) { launch(s_, kernel_, grid_, 0, ph); }

 private:
  const DeviceSetup& s_;
  void (*kernel_)(DevicePhase<Sim>);
  uint32_t grid_;
};

}  // namespace

SchedulerEntry dynamic_thread_entry() {
  return {"dynamic-thread",
          "one persistent kernel, each thread takes the next particle from a global counter "
          "(seed §3.1.9)",
          SchedulerKind::kGpu, launch_knobs::grid_shape(), device_runners<DynamicThread>()};
}

}  // namespace sb
