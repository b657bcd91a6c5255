// dynamic-block (seed 003 §3.1.10, §3.3.4; "Dynamic Old" in §5.3): one persistent kernel; a block
// takes the next blockDim slots from a global counter at once (the start kept in shared
// memory), each thread runs its particle to the end of the phase, and the block meets before
// taking the next chunk.
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

template <class Sim>
__global__ void dynamic_block(DevicePhase<Sim> ph) {
  __shared__ uint32_t chunk;
  while (true) {
    if (threadIdx.x == 0) {
      chunk = DeviceAtomicU32(ph.counters->next).fetch_add(blockDim.x, cuda::memory_order_relaxed);
    }
    __syncthreads();
    const uint32_t i = chunk + threadIdx.x;
    bool ended = i >= ph.capacity;
    if (!ended) {
      typename Sim::Particle* slot = ph.particles + i;
      unsigned int finished = 0;
      ended = !await_slot(ph, slot, finished);
      if (!ended) {
        typename Sim::Particle p = *slot;
        run_to_end_spawning(ph, p);
        *slot = p;
        count_done(ph, 1);
      }
    }
    // Block-uniform exit: once any thread sees the end, every slot that will ever be published
    // in this chunk has been run. The barrier also keeps `chunk` until everyone has read it.
    if (__syncthreads_or(ended)) return;
  }
}

template <class Sim>
class DynamicBlock {
 public:
  explicit DynamicBlock(const DeviceSetup& s)
      : s_(s), grid_(persistent_grid(dynamic_block<Sim>, s)) {}

  void run_phase(const DevicePhase<Sim>& ph, uint32_t) {
    SB_LAUNCH(dynamic_block<Sim>, grid_, s_.config.block_size, 0, s_.stream, ph);
  }

 private:
  const DeviceSetup& s_;
  uint32_t grid_;
};

}  // namespace

SchedulerEntry dynamic_block_entry() {
  return {"dynamic-block",
          "one persistent kernel, each block takes the next blockDim particles at once "
          "(seed §3.1.10, §3.3.4; \"Dynamic Old\")",
          SchedulerKind::kGpu,
          {"block_size", "blocks_per_sm"},
          device_runners<DynamicBlock>()};
}

}  // namespace sb
