// naive-buffered (seed 003 §3.3.1, the MVP's "Naive"): naive with a per-block spawn buffer in
// shared memory. Children gather in the buffer, one thread claims slots for the whole block
// with one atomic, and the block writes them out side by side.
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
__global__ void SB_BLOCK_BOUND(kBound) naive_buffered_step(DevicePhase<Sim> ph, SlotIndex count) {
  using Particle = typename Sim::Particle;
  extern __shared__ unsigned char shared[];
  Particle* buffer = reinterpret_cast<Particle*>(shared);
  __shared__ unsigned int buffered;
  __shared__ SlotIndex first;
  if (threadIdx.x == 0) buffered = 0;
  __syncthreads();

  const SlotIndex i = grid_thread_index();
  if (i < count) {
    Particle p = ph.particles[i], child;
    if (has_work(p.tag, ph.window)) {
      if (step_once(ph, p, child)) buffer[atomicAdd(&buffered, 1u)] = child;
      ph.particles[i] = p;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && buffered > 0) first = claim_slots(ph, buffered);
  __syncthreads();
  // Children are read only by later launches: plain stores suffice.
  if (threadIdx.x < buffered && first < ph.capacity) {
    ph.particles[first + threadIdx.x] = buffer[threadIdx.x];
  }
}

template <class Sim>
class NaiveBuffered {
 public:
  explicit NaiveBuffered(const DeviceSetup& s)
      : s_(s), shared_bytes_(s.knobs.block_size * sizeof(typename Sim::Particle)) {
    step_ = kernel_for_block(naive_buffered_step<Sim, kAnyBlock>,
                             naive_buffered_step<Sim, kLargestBlockBound<Sim>>, s, shared_bytes_);
  }

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex n) {
    for (uint32_t t = ph.window.start; t < ph.window.end && n > 0; ++t) {
      launch(s_, step_, blocks_for(n, s_.knobs.block_size), shared_bytes_, ph, n);
      n = counter_.read_n(s_, ph.counters, ph.capacity);
    }
  }

 private:
  const DeviceSetup& s_;
  size_t shared_bytes_;
  void (*step_)(DevicePhase<Sim>, SlotIndex) = nullptr;
  HostCounter counter_;
};

}  // namespace

SchedulerEntry naive_buffered_entry() {
  return {"naive-buffered",
          "naive with a per-block shared-memory spawn buffer and one atomic per block "
          "(seed §3.3.1)",
          SchedulerKind::kGpu,
          {&launch_knobs::block_size()},
          device_runners<NaiveBuffered>()};
}

}  // namespace sb
