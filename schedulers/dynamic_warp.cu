// dynamic-warp (seed 003 §3.4.4; "Dynamic" in §5.3): one persistent kernel with the loop
// inverted: every iteration, each lane advances the particle it holds by ONE step, so a lane
// whose particle ends takes a new one at the next iteration instead of idling until the
// warp's longest particle ends.
//
// Per iteration, warp-synchronously:
//   1. lanes without a slot take the next ones from a global counter, one atomic per warp;
//   2. a lane whose slot is published loads it (starting only on iterations divisible by 4, so
//      that the lanes of a warp compute their Philox blocks together: core/draws.hpp);
//   3. lanes holding a particle take one step;
//   4. children go to a per-block shared-memory buffer; a warp that finds it full writes it
//      out to global memory, claiming all its slots with one atomic (under a block lock);
//   5. one atomic per warp keeps `live`, the number of particles created and not finished.
// A warp with an idle lane also writes out the block's buffer, so children do not wait there
// while lanes wait for work. The warp exits when none of its lanes holds a particle and `live`
// is zero: nothing exists that could still spawn.
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

constexpr unsigned int kFullWarp = 0xFFFFFFFFu;
constexpr uint32_t kNoSlot = 0xFFFFFFFFu;
constexpr unsigned int kBufferSize = 64;  // children per block buffer: two warps' worth

using BlockAtomicInt = cuda::atomic_ref<int, cuda::thread_scope_block>;

// The block's spawn buffer in shared memory.
template <class Particle>
struct SpawnBuffer {
  Particle children[kBufferSize];
  unsigned int count;
  int lock;
};

// Warp-collective: lane 0 takes the block lock; its acquire and __syncwarp give the whole warp
// the buffer as the last holder left it.
template <class Particle>
__device__ void lock_buffer(SpawnBuffer<Particle>& b) {
  if ((threadIdx.x & 31) == 0) {
    int expected = 0;
    while (!BlockAtomicInt(b.lock).compare_exchange_weak(expected, 1, cuda::memory_order_acquire,
                                                          cuda::memory_order_relaxed)) {
      expected = 0;
    }
  }
  __syncwarp();
}

template <class Particle>
__device__ void unlock_buffer(SpawnBuffer<Particle>& b) {
  __syncwarp();
  if ((threadIdx.x & 31) == 0) BlockAtomicInt(b.lock).store(0, cuda::memory_order_release);
}

// Warp-collective, with the lock held: moves the buffered children to global memory.
template <class Sim>
__device__ void write_out(const DevicePhase<Sim>& ph, SpawnBuffer<typename Sim::Particle>& b) {
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int count = b.count;
  if (count == 0) return;
  uint32_t first = 0;
  if (lane == 0) first = claim_slots(ph, count);
  first = __shfl_sync(kFullWarp, first, 0);
  if (first < ph.capacity) {
    for (unsigned int j = lane; j < count; j += 32) publish(ph.particles + first + j, b.children[j]);
  }
  __syncwarp();
  if (lane == 0) b.count = 0;
}

// Warp-collective: the lanes in `spawners` add `child` to the block's buffer.
template <class Sim>
__device__ void buffer_children(const DevicePhase<Sim>& ph, SpawnBuffer<typename Sim::Particle>& b,
                                unsigned int spawners, const typename Sim::Particle& child) {
  const unsigned int lane = threadIdx.x & 31;
  lock_buffer(b);
  if (b.count + __popc(spawners) > kBufferSize) write_out(ph, b);
  __syncwarp();
  if (spawners & (1u << lane)) b.children[b.count + __popc(spawners & ((1u << lane) - 1))] = child;
  __syncwarp();
  if (lane == 0) b.count += __popc(spawners);
  unlock_buffer(b);
}

template <class Sim>
__global__ void dynamic_warp(DevicePhase<Sim> ph) {
  using Particle = typename Sim::Particle;
  __shared__ SpawnBuffer<Particle> buffer;
  if (threadIdx.x == 0) {
    buffer.count = 0;
    buffer.lock = 0;
  }
  __syncthreads();  // the only block-wide barrier: from here on warps run independently

  const unsigned int lane = threadIdx.x & 31;
  DeviceAtomicU32 next(ph.counters->next), live(ph.counters->live);
  uint32_t slot = kNoSlot;  // the slot this lane holds
  bool running = false;     // its particle is loaded and taking steps
  bool exhausted = false;   // the slot counter passed the capacity: no more work for this lane
  Particle p;
  StepDraws draws(ph.key, 0, 0);
  for (uint32_t iteration = 0;; ++iteration) {
    const unsigned int need = __ballot_sync(kFullWarp, slot == kNoSlot && !exhausted);
    if (need != 0) {
      // A stopped run takes no new work; the warp ends once its running particles do.
      const int leader = __ffs(need) - 1;
      uint32_t first = ph.capacity;
      if (static_cast<int>(lane) == leader && !stop_requested(ph)) {
        first = next.fetch_add(__popc(need), cuda::memory_order_relaxed);
      }
      first = __shfl_sync(kFullWarp, first, leader);
      if (need & (1u << lane)) {
        const uint32_t mine = first + __popc(need & ((1u << lane) - 1));
        slot = mine < ph.capacity ? mine : kNoSlot;
        exhausted = mine >= ph.capacity;
      }
    }

    if (!running && slot != kNoSlot && (iteration & 3u) == 0 && is_published(ph.particles + slot)) {
      p = ph.particles[slot];
      draws = StepDraws(ph.key, p.tag.id(), draw_base(p.tag, ph.window));
      running = true;
    }

    Particle child;
    bool spawned = false, finished = false;
    if (running) {
      if (has_work(p.tag, ph.window)) {
        spawned = advance<Sim>(p, child, ph.params, draws, ph.window) == Fate::kSpawned;
      }
      if (!has_work(p.tag, ph.window)) {
        ph.particles[slot] = p;
        slot = kNoSlot;
        running = false;
        finished = true;
      }
    }

    const unsigned int spawners = __ballot_sync(kFullWarp, spawned);
    if (spawners != 0) buffer_children(ph, buffer, spawners, child);
    const int delta = __popc(spawners) - __popc(__ballot_sync(kFullWarp, finished));
    if (delta != 0 && lane == 0) live.fetch_add(static_cast<unsigned int>(delta), cuda::memory_order_acq_rel);

    const unsigned int busy = __ballot_sync(kFullWarp, running);
    if (busy != kFullWarp) {
      if (*static_cast<volatile unsigned int*>(&buffer.count) != 0) {
        lock_buffer(buffer);
        write_out(ph, buffer);
        unlock_buffer(buffer);
      }
      if (busy == 0) {
        bool end = false;
        if (lane == 0) end = live.load(cuda::memory_order_acquire) == 0 || stop_requested(ph);
        if (__shfl_sync(kFullWarp, end, 0)) return;
        unsigned int ns = 64;
        back_off(ns);
      }
    }
  }
}

template <class Sim>
class DynamicWarp {
 public:
  explicit DynamicWarp(const DeviceSetup& s) : s_(s), grid_(persistent_grid(dynamic_warp<Sim>, s)) {}

  void run_phase(const DevicePhase<Sim>& ph, uint32_t) {
    SB_LAUNCH(dynamic_warp<Sim>, grid_, s_.config.block_size, 0, s_.stream, ph);
  }

 private:
  const DeviceSetup& s_;
  uint32_t grid_;
};

}  // namespace

SchedulerEntry dynamic_warp_entry() {
  return {"dynamic-warp",
          "one persistent kernel, inverted loop: every lane one step per iteration, warp-aggregated "
          "fetch, block spawn buffer (seed §3.4.4; \"Dynamic\")",
          SchedulerKind::kGpu,
          {"block_size", "blocks_per_sm", "timeout"},
          device_runners<DynamicWarp>()};
}

}  // namespace sb
