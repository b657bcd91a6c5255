// The host side of a scheduler that is one persistent pool kernel (dynamic-warp, dynamic-block):
// the kernel of the run's policy, a grid of resident blocks, one launch per phase.
#pragma once

#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/warp_pool.cuh"

namespace sb {

// `KernelOf{}(static_cast<Policy*>(nullptr))` gives the kernel of each policy of `List`;
// `policies()` is the scheduler's SchedulerPolicies.
template <class Sim, class List, const SchedulerPolicies& (*policies)(), class KernelOf>
class PersistentPool {
 public:
  using Kernel = void (*)(DevicePhase<Sim>);

  explicit PersistentPool(const DeviceSetup& s)
      : s_(s),
        k_(pool_kernel<List, typename Sim::Particle, Kernel>(policies(), s, KernelOf{})),
        grid_(persistent_grid(k_.kernel, s, k_.shared_bytes)) {}

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex) {
    launch(s_, k_.kernel, grid_, k_.shared_bytes, ph);
  }

 private:
  const DeviceSetup& s_;
  PoolKernel<Kernel> k_;
  uint32_t grid_;
};

}  // namespace sb
