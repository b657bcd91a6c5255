// dynamic-warp (seed 003 §3.4.4; "Dynamic" in §5.3): one persistent kernel with the loop
// inverted: every iteration, each lane advances the particle it holds by a few steps, so a lane
// whose particle ends takes a new one at the next iteration instead of idling until the warp's
// longest particle ends.
//
// Per iteration, warp-synchronously:
//   1. lanes without a slot take the next ones from a global counter, one atomic per warp;
//   2. a lane whose slot is published loads it;
//   3. lanes holding a particle take kStepsPerIteration steps (fewer if it ends sooner); after
//      each step, children go to the warp's segment of the block's shared-memory spawn buffer,
//      and a warp whose segment is full writes it out to global memory, claiming all its slots
//      with one atomic;
//   4. lanes whose particle ended store it back;
//   5. one atomic per warp keeps `live`, the number of particles created and not finished.
// The seed takes one step per iteration; its bookkeeping (votes, fetch and load checks, the
// convergence points they force) then costs about as much as the step itself (our SASS and
// Nsight Compute counts, docs/performance.md). Eight steps per iteration amortise it, for at
// most seven idle steps of a lane per particle. Eight is also two Philox blocks: every particle
// starts at an iteration, so the lanes of a warp draw their blocks together (core/draws.hpp).
// A warp with an idle lane also writes out its segment, so that children do not wait there
// while lanes wait for work. The warp exits when none of its lanes holds a particle and `live`
// is zero: nothing exists that could still spawn.
//
// The seed shares one buffer among a block's warps under a lock; we give each warp a segment of
// it, which needs no lock (the seed's critical section, §3.4.4) and keeps every shared-memory
// access ordered by __syncwarp, which compute-sanitizer's racecheck can verify.
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

constexpr unsigned int kFullWarp = 0xFFFFFFFFu;
constexpr uint32_t kNoSlot = 0xFFFFFFFFu;
constexpr unsigned int kSegment = 32;       // children per warp segment: one warp-step's worst case
constexpr uint32_t kStepsPerIteration = 8;  // a multiple of 4: whole Philox blocks

// One warp's segment of the block's spawn buffer (the buffer is dynamic shared memory).
template <class Particle>
struct SpawnSegment {
  Particle children[kSegment];
  unsigned int count;
};

// Warp-collective: moves the segment's children to global memory, one atomic for all.
template <class Sim>
__device__ void write_out(const DevicePhase<Sim>& ph, SpawnSegment<typename Sim::Particle>& seg) {
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int count = seg.count;
  uint32_t first = 0;
  if (lane == 0) first = claim_slots(ph, count);
  first = __shfl_sync(kFullWarp, first, 0);
  if (first < ph.capacity && lane < count) publish(ph.particles + first + lane, seg.children[lane]);
  __syncwarp();
  if (lane == 0) seg.count = 0;
  __syncwarp();
}

// Warp-collective: the lanes in `spawners` add `child` to the segment.
template <class Sim>
__device__ void buffer_children(const DevicePhase<Sim>& ph,
                                SpawnSegment<typename Sim::Particle>& seg, unsigned int spawners,
                                const typename Sim::Particle& child) {
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int k = __popc(spawners);
  if (seg.count + k > kSegment) write_out(ph, seg);
  const unsigned int at = seg.count;
  if (spawners & (1u << lane)) seg.children[at + __popc(spawners & ((1u << lane) - 1))] = child;
  __syncwarp();
  if (lane == 0) seg.count = at + k;
  __syncwarp();
}

template <class Sim>
__global__ void dynamic_warp(DevicePhase<Sim> ph) {
  using Particle = typename Sim::Particle;
  extern __shared__ unsigned char shared[];
  SpawnSegment<Particle>& segment =
      reinterpret_cast<SpawnSegment<Particle>*>(shared)[threadIdx.x / 32];
  if ((threadIdx.x & 31) == 0) segment.count = 0;
  __syncwarp();

  const unsigned int lane = threadIdx.x & 31;
  DeviceAtomicU32 next(ph.counters->next), live(ph.counters->live);
  uint32_t slot = kNoSlot;  // the slot this lane holds
  bool running = false;     // its particle is loaded and taking steps
  bool exhausted = false;   // the slot counter passed the capacity: no more work for this lane
  Particle p;
  StepDraws draws(ph.key, 0, 0);
  while (true) {
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

    if (!running && slot != kNoSlot && is_published(ph.particles + slot)) {
      p = ph.particles[slot];
      draws = StepDraws(ph.key, p.tag.id(), draw_base(p.tag, ph.window));
      running = true;
    }

    unsigned int spawned = 0;  // this iteration's children, warp-wide
#pragma unroll 1
    for (uint32_t k = 0; k < kStepsPerIteration; ++k) {
      Particle child;
      const bool spawns = running && has_work(p.tag, ph.window) &&
                          advance<Sim>(p, child, ph.params, draws, ph.window) == Fate::kSpawned;
      const unsigned int spawners = __ballot_sync(kFullWarp, spawns);
      if (spawners != 0) {
        buffer_children(ph, segment, spawners, child);
        spawned += __popc(spawners);
      }
    }

    const bool finished = running && !has_work(p.tag, ph.window);
    if (finished) {
      ph.particles[slot] = p;
      slot = kNoSlot;
      running = false;
    }
    const int delta = static_cast<int>(spawned) - __popc(__ballot_sync(kFullWarp, finished));
    // Relaxed: `live` only decides when warps may exit, and an exiting warp reads nothing;
    // children are published by their own release and acquire. A release here would make every
    // iteration wait for the warp's stores, an acquire would empty L1.
    if (delta != 0 && lane == 0)
      live.fetch_add(static_cast<unsigned int>(delta), cuda::memory_order_relaxed);

    const unsigned int busy = __ballot_sync(kFullWarp, running);
    if (busy != kFullWarp) {
      if (segment.count != 0) write_out(ph, segment);
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
  explicit DynamicWarp(const DeviceSetup& s)
      : s_(s),
        shared_bytes_(s.config.block_size / 32 * sizeof(SpawnSegment<typename Sim::Particle>)) {
    SB_CUDA_CHECK(cudaFuncSetAttribute(dynamic_warp<Sim>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(shared_bytes_)));
    grid_ = persistent_grid(dynamic_warp<Sim>, s, shared_bytes_);
  }

  void run_phase(const DevicePhase<Sim>& ph, uint32_t) {
    SB_LAUNCH(dynamic_warp<Sim>, grid_, s_.config.block_size, shared_bytes_, s_.stream, ph);
  }

 private:
  const DeviceSetup& s_;
  size_t shared_bytes_;
  uint32_t grid_ = 0;
};

}  // namespace

SchedulerEntry dynamic_warp_entry() {
  return {
      "dynamic-warp",
      "one persistent kernel, inverted loop: every lane one step per iteration, warp-aggregated "
      "fetch, shared-memory spawn buffer per warp (seed §3.4.4; \"Dynamic\")",
      SchedulerKind::kGpu,
      {"block_size", "blocks_per_sm"},
      device_runners<DynamicWarp>()};
}

}  // namespace sb
