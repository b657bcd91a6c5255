// dynamic-warp (seed 003 §3.4.4; "Dynamic" in §5.3): one persistent kernel with the loop
// inverted: every iteration, each lane advances the particle it holds by a few steps, so a lane
// whose particle ends takes a new one at the next iteration instead of idling until the warp's
// longest particle ends.
//
// Per iteration, warp-synchronously:
//   1. lanes without work take children from the warp's pool, newest first;
//   2. lanes still without work take the next slots from a global counter, one atomic per warp;
//   3. a lane whose slot is published loads it;
//   4. lanes holding a particle take kStepsPerIteration steps (fewer if it ends sooner); after
//      each step, children go to the warp's pool, a segment of the block's shared memory; a
//      full pool is written out to global memory, all its slots claimed with one atomic;
//   5. lanes whose particle ended store it back, or, if it came from the pool, give it a slot
//      only if it is still alive: a child that dies in the warp that spawned it never touches
//      global memory, and is only counted (DeviceCounters::held);
//   6. one atomic per warp keeps `live`, the number of particles created and not finished, and
//      one counts the pool's new children against the capacity;
//   7. if lanes elsewhere wait for work (the slot counter is past the claimed slots), the pool
//      is written out for them.
// The seed takes one step per iteration and writes every child to global memory; its
// bookkeeping (votes, fetch and load checks, the convergence points they force) then costs
// about as much as the step itself (our SASS and Nsight Compute counts, docs/performance.md).
// Eight steps per iteration amortise it, for at most seven idle steps of a lane per particle.
// Eight is also two Philox blocks: every particle starts at an iteration, so the lanes of a warp
// draw their blocks together (core/draws.hpp). Keeping children in the warp spares each the
// slot claim, the release store, the fetch and the acquire load (which empties the SM's L1) of
// a trip through global memory; where particles live a few dozen steps (pic) that trip is most
// of a particle's cost. The warp exits when none of its lanes holds a particle and `live` is
// zero: nothing exists that could still spawn.
//
// The seed shares one buffer among a block's warps under a lock; we give each warp a segment of
// it, which needs no lock (the seed's critical section, §3.4.4) and keeps every shared-memory
// access ordered by __syncwarp, which compute-sanitizer's racecheck can verify.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

namespace cg = cooperative_groups;

constexpr unsigned int kFullWarp = 0xFFFFFFFFu;
constexpr uint32_t kNoSlot = 0xFFFFFFFFu;
constexpr unsigned int kPool = 32;          // children per warp: one warp-step's worst case
constexpr uint32_t kStepsPerIteration = 8;  // a multiple of 4: whole Philox blocks
constexpr uint32_t kLookEvery = 4;          // iterations between looks at the run's counters

// One warp's pool of children, a segment of the block's dynamic shared memory. The oldest
// `held` of them are counted against the capacity (hold_slots); newer ones not yet.
template <class Particle>
struct WarpPool {
  Particle children[kPool];
  unsigned int count;
  unsigned int held;
};

__device__ inline unsigned int lanes_below(unsigned int mask) {
  return __popc(mask & ((1u << (threadIdx.x & 31)) - 1));
}

// Warp-collective: moves the pool's children to global memory, one atomic for all their slots.
template <class Sim>
__device__ void write_out(const DevicePhase<Sim>& ph, WarpPool<typename Sim::Particle>& pool) {
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int count = pool.count;
  uint32_t first = 0;
  if (lane == 0) first = claim_slots(ph, count, pool.held);
  first = __shfl_sync(kFullWarp, first, 0);
  if (first < ph.capacity && lane < count)
    publish(ph.particles + first + lane, pool.children[lane]);
  __syncwarp();
  if (lane == 0) pool.count = pool.held = 0;
  __syncwarp();
}

// Warp-collective: the lanes in `spawners` add `child` to the pool.
template <class Sim>
__device__ void pool_children(const DevicePhase<Sim>& ph, WarpPool<typename Sim::Particle>& pool,
                              unsigned int spawners, const typename Sim::Particle& child) {
  const unsigned int k = __popc(spawners);
  if (pool.count + k > kPool) write_out(ph, pool);
  const unsigned int at = pool.count;
  if (spawners & (1u << (threadIdx.x & 31))) pool.children[at + lanes_below(spawners)] = child;
  __syncwarp();
  if ((threadIdx.x & 31) == 0) pool.count = at + k;
  __syncwarp();
}

// Warp-collective: the lanes in `takers` take children from the top of the pool, as many as
// there are; returns those that got one, with `p` set.
template <class Particle>
__device__ unsigned int take_children(WarpPool<Particle>& pool, unsigned int takers, Particle& p) {
  const unsigned int count = pool.count;
  const unsigned int rank = lanes_below(takers);
  const bool gets = (takers & (1u << (threadIdx.x & 31))) && rank < count;
  if (gets) p = pool.children[count - 1 - rank];
  const unsigned int got = __ballot_sync(kFullWarp, gets);
  __syncwarp();
  if ((threadIdx.x & 31) == 0) pool.count = pool.held = count - __popc(got);  // all were held
  __syncwarp();
  return got;
}

template <class Sim>
__global__ void dynamic_warp(DevicePhase<Sim> ph) {
  using Particle = typename Sim::Particle;
  extern __shared__ unsigned char shared[];
  WarpPool<Particle>& pool = reinterpret_cast<WarpPool<Particle>*>(shared)[threadIdx.x / 32];
  const unsigned int lane = threadIdx.x & 31;
  if (lane == 0) pool.count = pool.held = 0;
  __syncwarp();

  DeviceAtomicU32 next(ph.counters->next), live(ph.counters->live);
  DeviceAtomicU64 slots(*reinterpret_cast<unsigned long long*>(&ph.counters->n));  // n and held
  uint32_t slot = kNoSlot;  // the global slot this lane holds
  bool running = false;     // its particle is loaded and taking steps
  bool pooled = false;      // that particle came from the pool: it has no slot
  bool exhausted = false;   // the slot counter passed the capacity: no more global work
  bool stop = false;        // a stop request was seen
  uint32_t iteration = 0;
  unsigned long long held_steps = 0;  // steps of pooled particles that died in this lane
  Particle p;
  StepDraws draws(ph.key, 0, 0);
  while (true) {
    if (!stop) {
      const unsigned int idle = __ballot_sync(kFullWarp, !running && slot == kNoSlot);
      if (idle != 0 && pool.count != 0 && take_children(pool, idle, p) & (1u << lane)) {
        running = pooled = true;
        draws = StepDraws(ph.key, p.tag.id(), draw_base(p.tag, ph.window));
      }
      const unsigned int need = __ballot_sync(kFullWarp, !running && slot == kNoSlot && !exhausted);
      if (need != 0) {
        const int leader = __ffs(need) - 1;
        uint32_t first = 0;
        if (static_cast<int>(lane) == leader)
          first = next.fetch_add(__popc(need), cuda::memory_order_relaxed);
        first = __shfl_sync(kFullWarp, first, leader);
        if (need & (1u << lane)) {
          const uint32_t mine = first + lanes_below(need);
          slot = mine < ph.capacity ? mine : kNoSlot;
          exhausted = mine >= ph.capacity;
        }
      }
      if (!running && slot != kNoSlot && is_published(ph.particles + slot)) {
        p = ph.particles[slot];
        draws = StepDraws(ph.key, p.tag.id(), draw_base(p.tag, ph.window));
        running = true;
        pooled = false;
      }
    }
    unsigned int spawned = 0;  // this iteration's children, warp-wide
#pragma unroll 1
    for (uint32_t k = 0; k < kStepsPerIteration; ++k) {
      Particle child;
      const bool spawns = running && has_work(p.tag, ph.window) &&
                          advance<Sim>(p, child, ph.params, draws, ph.window) == Fate::kSpawned;
      const unsigned int spawners = __ballot_sync(kFullWarp, spawns);
      if (spawners != 0) {
        pool_children(ph, pool, spawners, child);
        spawned += __popc(spawners);
      }
    }

    const bool finished = running && !has_work(p.tag, ph.window);
    // A pooled particle that ends alive needs a slot: it is published like a child, and the lane
    // that picks it up finds it finished and counts it.
    const unsigned int survivors = __ballot_sync(kFullWarp, finished && pooled && is_alive(p.tag));
    if (survivors != 0) {
      uint32_t first = 0;
      if (lane == 0) first = claim_slots(ph, __popc(survivors), __popc(survivors));
      first = __shfl_sync(kFullWarp, first, 0);
      if ((survivors & (1u << lane)) && first < ph.capacity)
        publish(ph.particles + first + lanes_below(survivors), p);
    }
    if (finished && pooled && !is_alive(p.tag))
      held_steps += p.tag.step - draw_base(p.tag, ph.window);
    if (finished && !pooled) ph.particles[slot] = p;
    if (finished) {
      slot = kNoSlot;
      running = false;
    }
    const int ended = __popc(__ballot_sync(kFullWarp, finished)) - __popc(survivors);
    const int delta = static_cast<int>(spawned) - ended;
    // Relaxed: `live` only decides when warps may exit, and an exiting warp reads nothing;
    // children are published by their own release and acquire. A release here would make every
    // iteration wait for the warp's stores, an acquire would empty L1.
    if (delta != 0 && lane == 0)
      live.fetch_add(static_cast<unsigned int>(delta), cuda::memory_order_relaxed);
    if (lane == 0 && pool.count > pool.held) hold_slots(ph, pool.count - pool.held);
    __syncwarp();
    if (lane == 0) pool.held = pool.count;
    __syncwarp();
    // Every few iterations, since each look waits for two loads: whether the run must stop, and
    // whether lanes elsewhere wait for work (they took slots past the claimed ones); those get
    // the pool.
    if (++iteration % kLookEvery == 0) {
      stop = stop_requested(ph);
      const bool starving = next.load(cuda::memory_order_relaxed) >
                            static_cast<uint32_t>(slots.load(cuda::memory_order_relaxed));
      if (starving && pool.count != 0) write_out(ph, pool);
    }

    // A stopped warp leaves its pool: the run has failed.
    if (__ballot_sync(kFullWarp, running) == 0 && (pool.count == 0 || stop)) {
      bool end = false;
      if (lane == 0) end = live.load(cuda::memory_order_acquire) == 0 || stop;
      if (__shfl_sync(kFullWarp, end, 0)) break;
      unsigned int ns = 64;
      back_off(ns);
    }
  }
  const unsigned long long warp_steps = cg::reduce(cg::tiled_partition<32>(cg::this_thread_block()),
                                                   held_steps, cg::plus<unsigned long long>());
  if (lane == 0 && warp_steps != 0) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(ph.counters->held_steps)
        .fetch_add(warp_steps, cuda::memory_order_relaxed);
  }
}

template <class Sim>
class DynamicWarp {
 public:
  explicit DynamicWarp(const DeviceSetup& s)
      : s_(s), shared_bytes_(s.config.block_size / 32 * sizeof(WarpPool<typename Sim::Particle>)) {
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
      "one persistent kernel, inverted loop: every lane 8 steps per iteration, children kept in a "
      "shared-memory pool per warp, warp-aggregated fetch (seed §3.4.4; \"Dynamic\")",
      SchedulerKind::kGpu,
      {"block_size", "blocks_per_sm"},
      device_runners<DynamicWarp>()};
}

}  // namespace sb
