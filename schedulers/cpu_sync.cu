// cpu-sync (seed 003 §3.1.4 "CPU Sync Full", §3.3.2): a launch per generation. Each thread runs
// one particle to the end of the phase; the host then reads the count and launches over the
// particles spawned meanwhile, until a generation spawns none.
//
// Ours adds two things. Each generation after the first is sorted by start step with CUB's
// radix sort, longest first. The threads of a warp then run equally long, and the longest particles
// start first, so the generation's last blocks are short ones. (The seed launched children in
// the order they were spawned, where a warp's particles need very different numbers of steps.)
// Children are stored without a release: nothing reads them before the next launch, and the
// release would make every spawning thread wait for all its stores.
#include <thrust/transform.h>
#include <cub/device/device_radix_sort.cuh>

#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/host_counter.hpp"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

// Runs in[k] to the end of the phase and stores it in slot first + k.
template <class Sim>
__global__ void cpu_sync_generation(DevicePhase<Sim> ph, const typename Sim::Particle* in,
                                    uint32_t first, uint32_t count) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  typename Sim::Particle p = in[k];
  if (has_work(p.tag, ph.window)) run_to_end_storing(ph, p);
  ph.particles[first + k] = p;
}

struct NextStep {
  template <class Particle>
  __device__ uint32_t operator()(const Particle& p) const {
    return p.tag.step;
  }
};

template <class Sim>
class CpuSync {
 public:
  using Particle = typename Sim::Particle;

  // A block size the kernel cannot run at (pic's: 1024 threads of 72 registers are more than an
  // SM's 64K) is a run error here rather than a failed launch.
  explicit CpuSync(const DeviceSetup& s) : s_(s) { blocks_that_fit(cpu_sync_generation<Sim>, s); }

  void run_phase(const DevicePhase<Sim>& ph, uint32_t n) {
    uint32_t last = 0;
    for (bool first_generation = true; n != last; first_generation = false) {
      const uint32_t count = n - last;
      const Particle* in = first_generation ? ph.particles : longest_first(ph, last, count);
      const uint32_t block = s_.config.block_size;
      SB_LAUNCH(cpu_sync_generation<Sim>, (count + block - 1) / block, block, 0, s_.stream, ph, in,
                last, count);
      last = n;
      n = counter_.read_n(s_, ph.counters, ph.capacity);
    }
  }

 private:
  // The particles in slots [first, first + count), sorted by next step into scratch memory.
  const Particle* longest_first(const DevicePhase<Sim>& ph, uint32_t first, uint32_t count) {
    keys_.reserve(2 * size_t{count});
    sorted_.reserve(count);
    const Particle* from = ph.particles + first;
    thrust::transform(thrust::cuda::par.on(s_.stream), from, from + count, keys_.data(),
                      NextStep{});
    const int end_bit = 32 - __builtin_clz(ph.window.end | 1u);
    size_t bytes = 0;
    SB_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_.data(),
                                                  keys_.data() + count, from, sorted_.data(), count,
                                                  0, end_bit, s_.stream));
    temp_.reserve(bytes);
    SB_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp_.data(), bytes, keys_.data(),
                                                  keys_.data() + count, from, sorted_.data(), count,
                                                  0, end_bit, s_.stream));
    return sorted_.data();
  }

  const DeviceSetup& s_;
  HostCounter counter_;
  DeviceBuffer<uint32_t> keys_;  // keys in, then keys out
  DeviceBuffer<Particle> sorted_;
  DeviceBuffer<unsigned char> temp_;
};

}  // namespace

SchedulerEntry cpu_sync_entry() {
  return {"cpu-sync",
          "a launch per generation, each thread one particle to the end, the host reads the "
          "count between generations; generations sorted longest first (seed §3.1.4, §3.3.2)",
          SchedulerKind::kGpu,
          {"block_size"},
          device_runners<CpuSync>()};
}

}  // namespace sb
