// The host side of a scheduler that is one persistent pool kernel (dynamic-warp, dynamic-block):
// the kernel of the run's policy, a grid of resident blocks, one launch per phase.
#pragma once

#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/pool_dispatch.cuh"

namespace sb {

// `KernelOf{}(static_cast<Policy*>(nullptr))` gives the kernel of each policy of `List`;
// `policies()` is the scheduler's SchedulerPolicies.
template <class Sim, class List, const SchedulerPolicies& (*policies)(), class KernelOf>
class PersistentPool {
 public:
  using Kernel = void (*)(DevicePhase<Sim>);

  explicit PersistentPool(const DeviceSetup& s)
      : s_(s),
        k_(pool_kernel<List, Sim, Kernel>(policies(), s, KernelOf{})),
        grid_(persistent_grid(k_.kernel, s, k_.shared_bytes)),
        queue_(k_.work_queue ? kWorkQueuePerSlot * s.config.capacity : 0,
               "the work queue (16 bytes per slot of --capacity)"),
        dead_slots_(
            k_.work_queue ? dead_slot_ring_words(uint64_t{grid_} * s.knobs.block_size / 32) : 0,
            "the rings of dead slots that groups of warps share") {
    // Entries read empty until set; each consumer clears its own (work_queue.cuh).
    if (queue_.size() != 0)
      SB_CUDA_CHECK(cudaMemsetAsync(queue_.data(), 0, queue_.size() * sizeof(SlotIndex), s.stream));
  }

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex n_start) {
    DevicePhase<Sim> queued = ph;
    if (queue_.size() != 0) {
      // What the last phase left in the rings names particles that its end removed.
      SB_CUDA_CHECK(cudaMemsetAsync(dead_slots_.data(), 0, dead_slots_.size() * sizeof(SlotIndex),
                                    s_.stream));
      queued.queue = {queue_.data(), n_start, queue_.size(), dead_slots_.data()};
    }
    launch(s_, k_.kernel, grid_, k_.shared_bytes, queued);
  }

  // The slots a phase claimed (DeviceCounters): with a work queue, n counts work items.
  SlotIndex slots_claimed(const DeviceCounters& end) const {
    return queue_.size() != 0 ? end.slots : end.n;
  }

 private:
  const DeviceSetup& s_;
  PoolKernel<Kernel> k_;
  uint32_t grid_;
  DeviceBuffer<SlotIndex> queue_;
  DeviceBuffer<SlotIndex> dead_slots_;
};

}  // namespace sb
