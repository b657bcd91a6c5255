// naive (seed 003 §3.1.1, "CPU Sync Iterate"): one launch per step with one thread per
// particle; after each step the host reads the particle count to size the next launch. Each
// spawn claims its slot with its own atomic.
#include "core/grid_shape.hpp"
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/host_counter.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

template <class Sim, int kBound>
__global__ void SB_BLOCK_BOUND(kBound) naive_step(DevicePhase<Sim> ph, SlotIndex count) {
  const SlotIndex i = grid_thread_index();
  if (i >= count) return;
  typename Sim::Particle p = ph.particles[i], child;
  if (!has_work(p.tag, ph.window)) return;
  const bool spawned = step_once(ph, p, child);
  ph.particles[i] = p;
  if (spawned) spawn(ph, child);
}

template <class Sim>
class Naive {
 public:
  explicit Naive(const DeviceSetup& s)
      : s_(s),
        step_(kernel_for_block(naive_step<Sim, kAnyBlock>, naive_step<Sim, kLargestBlockBound<Sim>>,
                               s)) {}

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex n) {
    for (uint32_t t = ph.window.start; t < ph.window.end && n > 0; ++t) {
      launch(s_, step_, blocks_for(n, s_.knobs.block_size), 0, ph, n);
      n = counter_.read_n(s_, ph.counters, ph.capacity);
    }
  }

 private:
  const DeviceSetup& s_;
  void (*step_)(DevicePhase<Sim>, SlotIndex);
  HostCounter counter_;
};

}  // namespace

SchedulerEntry naive_entry() {
  return {"naive",
          "a launch per step, a thread per particle, the host reads the count between steps "
          "(seed §3.1.1)",
          SchedulerKind::kGpu,
          {&launch_knobs::block_size()},
          device_runners<Naive>()};
}

}  // namespace sb
