// dynamic-warp (seed 003 §3.4.4; "Dynamic" in §5.3): one persistent kernel with the loop
// inverted: every iteration, each lane advances the particle it holds by a few steps, so a lane
// whose particle ends takes a new one at the next iteration instead of idling until the warp's
// longest particle ends.
//
// Per iteration, warp-synchronously:
//   1. idle lanes load the global slot they reserved, once its particle is published;
//   2. lanes still idle take children from the warp's pool in shared memory, newest first;
//   3. lanes still idle reserve the next slots from a global counter, one atomic per warp (a
//      reservation never keeps a lane from pool children);
//   4. lanes holding a particle take kStepsPerIteration steps (fewer if it ends sooner); after
//      each step, children go to the pool; a full pool is written out to global memory, where
//      any warp may take them, with one atomic for its slots;
//   5. lanes whose particle ended put it in its slot: the slot it came from, or, for a pool
//      child that survived to the end of the phase, a new one; a pool child that died needs no
//      slot at all, and the driver is told how many there were and how many steps they took;
//   6. one atomic per warp keeps `live`, the number of particles created and not finished.
// The warp exits when none of its lanes holds a particle, its pool is empty and `live` is zero:
// nothing exists that could still spawn.
//
// Departures from the seed, each for a measured reason (docs/performance.md):
//   - Several steps per iteration: with one, the iteration's bookkeeping (votes, fetch and load
//     checks, the convergence points they force) costs as much as the step itself.
//   - Children stay in the warp that spawned them until its lanes are free: in pic, where a
//     particle splits or dies every few dozen steps, sending every child through global memory
//     costs a slot claim, a release store, and an acquire load that invalidates the SM's L1 (and
//     with it the cross-section tables) at every pickup.
//   - One pool per warp instead of one per block under a lock: no critical section (the seed's
//     own drawback, §3.4.4), and every shared-memory access is ordered by __syncwarp, which
//     compute-sanitizer's racecheck can verify.
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

constexpr unsigned int kFullWarp = 0xFFFFFFFFu;
constexpr uint32_t kNoSlot = 0xFFFFFFFFu;
constexpr unsigned int kPool = 32;          // children per warp pool: one warp-step's worst case
constexpr uint32_t kStepsPerIteration = 8;  // a multiple of 4: whole Philox blocks

__device__ inline unsigned int lane_id() { return threadIdx.x & 31; }
__device__ inline unsigned int lanes_below(unsigned int mask) {
  return __popc(mask & ((1u << lane_id()) - 1));
}

// One warp's pool of children (the block's pools are its dynamic shared memory).
template <class Particle>
struct ChildPool {
  Particle children[kPool];
  unsigned int count;
};

// Warp-collective: moves the pool's children to global memory, one atomic for their slots.
template <class Sim>
__device__ void write_out(const DevicePhase<Sim>& ph, ChildPool<typename Sim::Particle>& pool) {
  const unsigned int count = pool.count;
  uint32_t first = 0;
  if (lane_id() == 0) first = claim_slots(ph, count);
  first = __shfl_sync(kFullWarp, first, 0);
  if (first < ph.capacity && lane_id() < count) {
    publish(ph.particles + first + lane_id(), pool.children[lane_id()]);
  }
  __syncwarp();
  if (lane_id() == 0) pool.count = 0;
  __syncwarp();
}

// Warp-collective: the lanes in `spawners` add `child` to the pool, which is written out first
// if they do not fit.
template <class Sim>
__device__ void pool_children(const DevicePhase<Sim>& ph, ChildPool<typename Sim::Particle>& pool,
                              unsigned int spawners, const typename Sim::Particle& child) {
  const unsigned int k = __popc(spawners);
  if (pool.count + k > kPool) write_out(ph, pool);
  const unsigned int at = pool.count;
  if (spawners & (1u << lane_id())) pool.children[at + lanes_below(spawners)] = child;
  __syncwarp();
  if (lane_id() == 0) pool.count = at + k;
  __syncwarp();
}

template <class Sim>
__global__ void dynamic_warp(DevicePhase<Sim> ph) {
  using Particle = typename Sim::Particle;
  extern __shared__ unsigned char shared[];
  ChildPool<Particle>& pool = reinterpret_cast<ChildPool<Particle>*>(shared)[threadIdx.x / 32];
  if (lane_id() == 0) pool.count = 0;
  __syncwarp();

  DeviceAtomicU32 next(ph.counters->next), live(ph.counters->live);
  // A lane may hold a reservation of a global slot whose particle is not published yet, and run
  // pool children meanwhile: were reservations to keep lanes from local work, a warp's pool would
  // be drained by the few lanes that hold none.
  uint32_t reserved = kNoSlot;  // a global slot this lane will load once it is published
  uint32_t slot = kNoSlot;      // the global slot of the running particle; kNoSlot for a pool child
  bool running = false;         // a particle is loaded and taking steps
  bool exhausted = false;       // the slot counter passed the capacity: no more global work
  unsigned int unslotted = 0;   // pool children that died here, and their steps
  unsigned long long unslotted_steps = 0;
  Particle p;
  StepDraws draws(ph.key, 0, 0);
  while (true) {
    // 1. Reserved global slots, once published: work other warps cannot take goes first.
    bool started = false;
    // A relaxed look first: the acquire that orders the particle's fields after its status also
    // invalidates the SM's L1, so it is paid once per pickup, not once per poll.
    if (!running && reserved != kNoSlot && looks_published(ph.particles + reserved) &&
        is_published(ph.particles + reserved)) {
      p = ph.particles[reserved];
      slot = reserved;
      reserved = kNoSlot;
      started = has_work(p.tag, ph.window);  // else a finished particle put here by its warp
    }

    // 2. Pool children to lanes still without a particle.
    const unsigned int idle = __ballot_sync(kFullWarp, !running && !started);
    const unsigned int from_pool = min(__popc(idle), pool.count);
    if (from_pool > 0) {
      const unsigned int rank = lanes_below(idle);
      if (!running && !started && rank < from_pool) {
        p = pool.children[pool.count - 1 - rank];
        slot = kNoSlot;
        started = true;
      }
      __syncwarp();
      if (lane_id() == 0) pool.count -= from_pool;
      __syncwarp();
    }

    // 3. Reservations of global slots for lanes still idle and holding none; a stopped run
    //    takes none.
    const unsigned int need =
        __ballot_sync(kFullWarp, !running && !started && reserved == kNoSlot && !exhausted);
    if (need != 0) {
      const int leader = __ffs(need) - 1;
      uint32_t first = ph.capacity;
      if (static_cast<int>(lane_id()) == leader && !stop_requested(ph)) {
        first = next.fetch_add(__popc(need), cuda::memory_order_relaxed);
      }
      first = __shfl_sync(kFullWarp, first, leader);
      if (need & (1u << lane_id())) {
        const uint32_t mine = first + lanes_below(need);
        reserved = mine < ph.capacity ? mine : kNoSlot;
        exhausted = mine >= ph.capacity;
      }
    }
    if (started) {
      draws = StepDraws(ph.key, p.tag.id(), draw_base(p.tag, ph.window));
      running = true;
    }

    // 4. Steps.
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

    // 5. Particles that ended.
    const bool finished = running && !has_work(p.tag, ph.window);
    const bool needs_slot = finished && slot == kNoSlot && is_alive(p.tag);
    const unsigned int newcomers = __ballot_sync(kFullWarp, needs_slot);
    if (newcomers != 0) {
      const int leader = __ffs(newcomers) - 1;
      uint32_t first = 0;
      if (static_cast<int>(lane_id()) == leader) first = claim_slots(ph, __popc(newcomers));
      first = __shfl_sync(kFullWarp, first, leader);
      if (needs_slot && first < ph.capacity) publish(ph.particles + first + lanes_below(newcomers), p);
    }
    if (finished) {
      if (slot != kNoSlot) {
        ph.particles[slot] = p;
      } else if (!is_alive(p.tag)) {
        ++unslotted;
        unslotted_steps += p.tag.step - draw_base(p.tag, ph.window);
      }
      running = false;
    }
    const int delta = static_cast<int>(spawned) - __popc(__ballot_sync(kFullWarp, finished));
    if (delta != 0 && lane_id() == 0) live.fetch_add(static_cast<unsigned int>(delta), cuda::memory_order_relaxed);

    // 6. Nothing to run: wait for published work, or end.
    if (__ballot_sync(kFullWarp, running) == 0 && pool.count == 0) {
      bool end = false;
      if (lane_id() == 0) end = live.load(cuda::memory_order_relaxed) == 0 || stop_requested(ph);
      if (__shfl_sync(kFullWarp, end, 0)) break;
      unsigned int ns = 64;
      back_off(ns);
    }
  }
  // Report the pool children that died here, once per warp.
  unslotted = __reduce_add_sync(kFullWarp, unslotted);
  for (int offset = 16; offset > 0; offset /= 2) {
    unslotted_steps += __shfl_down_sync(kFullWarp, unslotted_steps, offset);
  }
  if (lane_id() == 0 && unslotted > 0) {
    atomicAdd(&ph.counters->unslotted, unslotted);
    atomicAdd(&ph.counters->unslotted_steps, unslotted_steps);
  }
}

template <class Sim>
class DynamicWarp {
 public:
  explicit DynamicWarp(const DeviceSetup& s)
      : s_(s), shared_bytes_(s.config.block_size / 32 * sizeof(ChildPool<typename Sim::Particle>)) {
    SB_CUDA_CHECK(cudaFuncSetAttribute(dynamic_warp<Sim>, cudaFuncAttributeMaxDynamicSharedMemorySize,
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
  return {"dynamic-warp",
          "one persistent kernel, inverted loop: lanes step independently, warp-aggregated fetch, "
          "children kept in a per-warp shared-memory pool (seed §3.4.4; \"Dynamic\")",
          SchedulerKind::kGpu,
          {"block_size", "blocks_per_sm"},
          device_runners<DynamicWarp>()};
}

}  // namespace sb
