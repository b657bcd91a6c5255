// gpu-iterate-global, gpu-iterate-organised and gpu-iterate-grid-sync (seed 003 §3.1.5-3.1.7):
// one persistent kernel for the whole phase; each thread takes a fixed stride of particles one
// step, then the grid meets at a barrier, reads the new count, and meets again before the next
// step. They differ only in the barrier. All three are launched cooperatively, so that every
// block is resident: a grid-wide barrier would otherwise wait for blocks that never start.
#pragma once

#include <cooperative_groups.h>

#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/step_once.cuh"

namespace sb {

// Counts arrivals on one device-wide counter up to `expected` (or back down to zero on
// alternate uses, so that it needs no reset); false if the run was stopped while waiting.
template <class Sim>
__device__ inline bool arrive_and_wait(const DevicePhase<Sim>& ph, unsigned int& counter,
                                       unsigned int expected, bool up) {
  DeviceAtomicU32 c(counter);
  // acq_rel: our writes of this step are released to, and the others' acquired by, the step after.
  if (up) {
    c.fetch_add(1, cuda::memory_order_acq_rel);
  } else {
    c.fetch_sub(1, cuda::memory_order_acq_rel);
  }
  const unsigned int target = up ? expected : 0;
  unsigned int ns = 32;
  while (c.load(cuda::memory_order_acquire) != target) {
    if (stop_requested(ph)) return false;
    back_off(ns);
  }
  return true;
}

// Every thread arrives on the counter (seed §3.1.5).
struct ThreadCountingBarrier {
  template <class Sim>
  __device__ static bool wait(const DevicePhase<Sim>& ph, unsigned int& counter, bool up) {
    return arrive_and_wait(ph, counter, gridDim.x * blockDim.x, up);
  }
};

// One thread per block arrives; the block meets at __syncthreads around it (seed §3.1.6).
struct BlockCountingBarrier {
  template <class Sim>
  __device__ static bool wait(const DevicePhase<Sim>& ph, unsigned int& counter, bool up) {
    bool stopped = false;
    // The fence makes the block's writes, ordered before thread 0 by __syncthreads, visible to
    // the device before thread 0 arrives (as cooperative groups' own grid barrier does).
    __syncthreads();
    if (threadIdx.x == 0) {
      cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
      stopped = !arrive_and_wait(ph, counter, gridDim.x, up);
    }
    return !__syncthreads_or(stopped);
  }
};

// Cooperative groups' grid barrier (seed §3.1.7).
struct GridSyncBarrier {
  template <class Sim>
  __device__ static bool wait(const DevicePhase<Sim>&, unsigned int&, bool) {
    cooperative_groups::this_grid().sync();
    return true;
  }
};

template <class Sim, class Barrier, int kBound>
__global__ void SB_BLOCK_BOUND(kBound) gpu_iterate(DevicePhase<Sim> ph, SlotIndex n) {
  const SlotIndex stride = grid_threads();
  bool up = true;
  for (uint32_t t = ph.window.start; t < ph.window.end; ++t) {
    for (SlotIndex i = grid_thread_index(); i < n && i < ph.capacity; i += stride) {
      typename Sim::Particle p = ph.particles[i], child;
      if (!has_work(p.tag, ph.window)) continue;
      const bool spawned = step_once(ph, p, child);
      ph.particles[i] = p;
      if (spawned) spawn(ph, child);
    }
    if (!Barrier::wait(ph, ph.counters->barrier[0], up)) return;  // step t done everywhere
    n = claimed(ph);
    if (!Barrier::wait(ph, ph.counters->barrier[1], up)) return;  // n read before step t+1 spawns
    up = !up;
  }
}

template <class Sim, class Barrier>
class GpuIterate {
 public:
  explicit GpuIterate(const DeviceSetup& s)
      : s_(s),
        kernel_(kernel_for_block(gpu_iterate<Sim, Barrier, kAnyBlock>,
                                 gpu_iterate<Sim, Barrier, kLargestBlockBound<Sim>>, s)),
        grid_(persistent_grid(kernel_, s)) {}

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex n) {
    launch_cooperative(kernel_, grid_, s_.knobs.block_size, 0, s_.stream, ph, n);
  }

 private:
  const DeviceSetup& s_;
  void (*kernel_)(DevicePhase<Sim>, SlotIndex);
  uint32_t grid_;
};

}  // namespace sb
