// The warp pool's device algorithm (the agent, in NVIDIA CUB's terms): running a warp's particles
// in iterations of a few steps with a pool of children in shared memory (seed 003 §3.4.4's spawn
// buffer, one per warp instead of one per block under a lock). Its constants come from the
// kernel's tuning policy (pool_policy.cuh); the host side that picks a policy and sizes the pools
// is pool_dispatch.cuh.
//
// Each iteration, every lane that holds a particle advances it Policy::kStepsPerIteration steps
// (fewer if it ends sooner); children go to the warp's pool, and a lane whose particle ended takes
// one from there at the next iteration instead of idling until the warp's longest particle ends. A
// child that lives and dies within its warp never touches global memory: no slot claim, no store,
// no load. It is only counted, once, as the warp exits (DeviceCounters::held): the counters that
// every warp would otherwise update each iteration are the most contended words of the kernel.
// A pooled particle that ends the phase alive needs a slot: where the policy's slot strategy
// keeps dead slots (ReuseDeadSlots and those derived from it, slot_recycler.cuh), it takes one
// whose particle this warp ran and stored dead (run_pooled_family, end_pooled), and a new one only
// where the warp has none left.
//
// The default of eight steps per iteration amortises the iteration's bookkeeping (votes, pool
// accesses and the convergence points they force), for at most seven idle steps of a lane per
// particle. Eight is also two Philox blocks: every particle starts at an iteration, so the lanes
// of a warp draw their blocks together (core/draws.hpp). Every shared-memory access is ordered by
// __syncwarp, which compute-sanitizer's racecheck can verify.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <type_traits>

#include "core/particle.hpp"
#include "core/sim_interface.hpp"
#include "schedulers/device/phase.cuh"
#include "schedulers/device/pool_policy.cuh"
#include "schedulers/device/shared_dead_slots.cuh"
#include "schedulers/device/slot_recycler.cuh"
#include "schedulers/device/slots.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/device/work_queue.cuh"

namespace sb {

// One warp's pool of children, a segment of the block's dynamic shared memory; `Policy` (a
// PoolPolicy) sizes it and is what the functions below take their constants from.
template <class Particle, class Policy>
struct WarpPool {
  Particle children[Policy::kPool];
  unsigned int count;
  RecycledSlots<Policy::kRecycled> dead;
};

// This warp's pool in the block's dynamic shared memory, emptied. Warp-collective.
template <class Particle, class Policy>
__device__ WarpPool<Particle, Policy>& empty_pool(unsigned char* shared) {
  WarpPool<Particle, Policy>& pool =
      reinterpret_cast<WarpPool<Particle, Policy>*>(shared)[threadIdx.x / 32];
  if ((threadIdx.x & 31) == 0) {
    pool.count = 0;
    if constexpr (Policy::kRecycled > 0) pool.dead.count = pool.dead.spilled = 0;
  }
  __syncwarp();
  return pool;
}

// What a lane's warp pool did to the slots: particles that died and hold no slot, pooled children
// that died without one and dead particles whose slot was reused (added to the run's
// DeviceCounters::held and held_steps once, as the warp exits), and own slots that the lane
// vacated (run_pooled_family).
struct SlotTally {
  unsigned int died = 0;
  unsigned long long steps = 0;
  unsigned int vacated = 0;

  template <class Particle>
  __device__ void add_death(const Particle& p, PhaseWindow w) {
    add_death_of(steps_in_phase(p, w));
  }

  // A death whose particle is gone: its slot was reused (slot_recycler.cuh, end_pooled).
  __device__ void add_death_of(uint32_t particle_steps) {
    ++died;
    steps += particle_steps;
  }

  // Warp-collective: how many more slots the warp may vacate. A vacated slot is one more than a
  // scheduler that stores every particle once would use; a child that died in the pool is one
  // fewer, and so is a reused slot (its dead particle, counted here by add_death_of, and the
  // survivor written over it took one slot where that scheduler takes two). Keeping the first no
  // larger than the second keeps n within that scheduler's need (n = particles held - died +
  // vacated), so that no run fails for want of slots that cpu-serial completes.
  __device__ unsigned int spare_slots() const {
    return __reduce_add_sync(kFullWarp, died) - __reduce_add_sync(kFullWarp, vacated);
  }

  // Warp-collective.
  template <class Sim>
  __device__ void flush(const DevicePhase<Sim>& ph) const {
    namespace cg = cooperative_groups;
    const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    const unsigned int warp_died = cg::reduce(warp, died, cg::plus<unsigned int>());
    const unsigned long long warp_steps = cg::reduce(warp, steps, cg::plus<unsigned long long>());
    if (warp.thread_rank() == 0 && warp_died != 0) {
      add_to_counter(ph.counters->held, warp_died);
      add_to_counter(ph.counters->held_steps, warp_steps);
    }
  }
};

// Warp-collective: the first of `count` new slots, claimed for the warp with one atomic: at the
// counter n, or where work is queued (kQueued, work_queue.cuh) at DeviceCounters::slots.
template <bool kQueued = false, class Sim>
__device__ SlotIndex claim_for_warp(const DevicePhase<Sim>& ph, unsigned int count) {
  SlotIndex first = 0;
  if ((threadIdx.x & 31) == 0)
    first = kQueued ? claim_queued_slots(ph, count) : claim_slots(ph, count);
  return __shfl_sync(kFullWarp, first, 0);
}

// Warp-collective: the lanes in `movers` put their `p` in consecutive new slots (kQueued: slots
// of a scheduler with a work queue, claim_for_warp).
template <class Handoff, bool kQueued = false, class Sim>
__device__ void hand_to_slots(const DevicePhase<Sim>& ph, unsigned int movers,
                              const typename Sim::Particle& p) {
  const SlotIndex first = claim_for_warp<kQueued>(ph, __popc(movers));
  if ((movers & lane_bit()) && first < ph.capacity)
    Handoff::put(ph.particles + first + lanes_below(movers), p);
}

// Warp-collective: moves the pool's children to global memory.
template <class Handoff, class Sim, class Policy>
__device__ void write_out(const DevicePhase<Sim>& ph,
                          WarpPool<typename Sim::Particle, Policy>& pool) {
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int count = pool.count;
  const SlotIndex first = claim_for_warp(ph, count);
#pragma unroll
  for (unsigned int warp = 0; warp < Policy::kPool / 32; ++warp) {
    const unsigned int k = warp * 32 + lane;
    if (first < ph.capacity && k < count) Handoff::put(ph.particles + first + k, pool.children[k]);
  }
  __syncwarp();
  if (lane == 0) pool.count = 0;
  __syncwarp();
}

// Warp-collective: hands the pool's children out as queued work (work_queue.cuh), for any warp
// to run: each in a dead slot of the warp where it has one, taking what it lacks from those its
// group gave first (take_dead_slots; the dead particle overwritten is counted in `tally`), the
// rest in new slots; a work item per child, claimed with one atomic.
template <class Sim, class Policy>
__device__ void queue_children(const DevicePhase<Sim>& ph,
                               WarpPool<typename Sim::Particle, Policy>& pool, SlotTally& tally) {
  using Dead = RecycledSlots<Policy::kRecycled>;
  const unsigned int lane = threadIdx.x & 31;
  if (pool.count > pool.dead.count) take_dead_slots(ph, pool.dead, pool.count - pool.dead.count);
  const unsigned int count = pool.count, free = pool.dead.count;
  const unsigned int reused = count < free ? count : free;
  SlotIndex item = 0, fresh = 0;
  if (lane == 0) {
    item = claim_work(ph, count);
    if (count > reused) fresh = claim_queued_slots(ph, count - reused);
  }
  item = __shfl_sync(kFullWarp, item, 0);
  fresh = __shfl_sync(kFullWarp, fresh, 0);
#pragma unroll
  for (unsigned int warp = 0; warp < Policy::kPool / 32; ++warp) {
    const unsigned int k = warp * 32 + lane;
    if (k >= count || item == work_limit<true>(ph)) continue;
    SlotIndex slot = fresh + (k - reused);
    if (k < reused) {
      const SlotIndex entry = pool.dead.entry[free - 1 - k];
      slot = Dead::slot_of(entry);
      tally.add_death_of(Dead::steps_of(entry));
    } else if (fresh == ph.capacity) {
      continue;
    }
    ph.particles[slot] = pool.children[k];
    enqueue(ph, item + k, slot);
  }
  __syncwarp();
  if (lane == 0) {
    pool.count = 0;
    pool.dead.count = free - reused;
  }
  __syncwarp();
}

// Warp-collective: hands the pool's children out for any warp to run: queued where the policy
// has a work queue, else written out to new slots.
template <class Handoff, class Sim, class Policy>
__device__ void hand_out_children(const DevicePhase<Sim>& ph,
                                  WarpPool<typename Sim::Particle, Policy>& pool,
                                  SlotTally& tally) {
  if constexpr (Policy::kQueue) {
    queue_children(ph, pool, tally);
  } else {
    write_out<Handoff>(ph, pool);
  }
}

// Warp-collective: moves the pool's children, from the top, into the warp's dead slots, as many
// as it has (slot_recycler.cuh); each dead particle overwritten is counted in `tally`. The warp
// takes them back with take_spilled: a child spilled so stays with its warp, where one written
// out goes to any warp for a new slot.
template <class Sim, class Policy>
__device__ void spill_children(const DevicePhase<Sim>& ph,
                               WarpPool<typename Sim::Particle, Policy>& pool, SlotTally& tally) {
  static_assert(Policy::kPool == 32, "a lane spills one child");
  using Dead = RecycledSlots<Policy::kRecycled>;
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int count = pool.count, free = pool.dead.count, spilled = pool.dead.spilled;
  const unsigned int moved = count < free ? count : free;
  SlotIndex slot = 0;
  if (lane < moved) {
    const SlotIndex entry = pool.dead.entry[free - 1 - lane];
    slot = Dead::slot_of(entry);
    tally.add_death_of(Dead::steps_of(entry));
    ph.particles[slot] = pool.children[count - 1 - lane];
  }
  __syncwarp();  // the spilled entries may overlap the dead ones just read
  if (lane < moved) pool.dead.entry[Policy::kRecycled - 1 - spilled - lane] = slot;
  __syncwarp();
  if (lane == 0) {
    pool.count = count - moved;
    pool.dead.count = free - moved;
    pool.dead.spilled = spilled + moved;
  }
  __syncwarp();
}

// Warp-collective: the lanes in `spawners` add `child` to the pool (spilled or written out first
// if it has no room).
template <class Handoff, class Sim, class Policy>
__device__ void pool_children(const DevicePhase<Sim>& ph,
                              WarpPool<typename Sim::Particle, Policy>& pool, unsigned int spawners,
                              const typename Sim::Particle& child, SlotTally& tally) {
  const unsigned int k = __popc(spawners);
  if constexpr (Policy::kSpill) {
    if (pool.count + k > Policy::kPool && pool.dead.count != 0) spill_children(ph, pool, tally);
  }
  if (pool.count + k > Policy::kPool) hand_out_children<Handoff>(ph, pool, tally);
  const unsigned int at = pool.count;
  if (spawners & lane_bit()) pool.children[at + lanes_below(spawners)] = child;
  __syncwarp();
  if ((threadIdx.x & 31) == 0) pool.count = at + k;
  __syncwarp();
}

// Warp-collective: the lanes in `takers` take children from the top of the pool, as many as
// there are; returns those that got one, with `p` set.
template <class Particle, class Policy>
__device__ unsigned int take_children(WarpPool<Particle, Policy>& pool, unsigned int takers,
                                      Particle& p) {
  const unsigned int count = pool.count;
  const unsigned int rank = lanes_below(takers);
  const bool gets = (takers & lane_bit()) && rank < count;
  if (gets) p = pool.children[count - 1 - rank];
  const unsigned int got = __ballot_sync(kFullWarp, gets);
  __syncwarp();
  if ((threadIdx.x & 31) == 0) pool.count = count - __popc(got);
  __syncwarp();
  return got;
}

// Warp-collective: the lanes whose pooled particle `p` ended (`ended`; it has no slot) give it
// one if it is still alive, and tally it if it died. Where the pool keeps dead slots
// (Policy::kRecycled > 0; run_pooled_family keeps those of the warp's own particles), the survivors
// take those first, newest first, each dead particle overwritten tallied (reuse_dead_slots; with a
// work queue, after taking what they lack from those the warp's group gave, take_dead_slots);
// only the rest claim new slots, like children (hand_to_slots; with a work queue, slots without a
// work item).
//
// A reused slot takes a plain store, not `Handoff` (Publish in dynamic-block): no thread reads it
// again in the phase. Its dead particle was one that a lane of this warp took from it and ran, so
// in dynamic-block it lies below the fetch counter, and the only lane that waited on it has loaded
// it; in cpu-sync it lies in the generation being run, whose particles were read at the launch,
// and the next generation reads only slots claimed after it. What is stored there has ended its
// phase: nobody has to run it. The driver reads it after the kernel, which orders the store, and
// the store follows the dead particle's (by any lane of the warp) across keep_dead_slots'
// __syncwarp. Where the pool keeps none (kRecycled 0), this is the plain hand-off, no more code.
template <class Handoff, class Sim, class Policy>
__device__ void end_pooled(const DevicePhase<Sim>& ph,
                           WarpPool<typename Sim::Particle, Policy>& pool, bool ended,
                           const typename Sim::Particle& p, SlotTally& tally) {
  unsigned int survivors = __ballot_sync(kFullWarp, ended && is_alive(p.tag));
  if constexpr (Policy::kQueue) {
    const unsigned int lacking = __popc(survivors);
    if (lacking > pool.dead.count) take_dead_slots(ph, pool.dead, lacking - pool.dead.count);
  }
  if constexpr (Policy::kRecycled > 0) {
    // pool.dead.count is the same in every lane (last written before a __syncwarp).
    if (survivors != 0 && pool.dead.count != 0)
      survivors &= ~reuse_dead_slots(pool.dead, survivors, ph.particles, p, tally);
  }
  // With a work queue a survivor's new slot gets no work item and a plain store: nobody has to
  // run it (work_queue.cuh).
  using SurvivorHandoff = std::conditional_t<Policy::kQueue, Store, Handoff>;
  if (survivors != 0) hand_to_slots<SurvivorHandoff, Policy::kQueue>(ph, survivors, p);
  if (ended && !is_alive(p.tag)) tally.add_death(p, ph.window);
}

// Warp-collective: the lanes whose own particle `p` just died in its slot `slot` (`dies`; stored
// there already) add the slot to the pool's dead slots, for end_pooled to reuse; nothing where the
// pool keeps none. A slot is offered once: its particle dies once, and a lane runs only the slots
// it fetched (dynamic-warp, dynamic-block: each once, from the counter; cpu-sync: its one of the
// generation).
template <class Sim, class Policy>
__device__ void keep_own_dead_slot(const DevicePhase<Sim>& ph,
                                   WarpPool<typename Sim::Particle, Policy>& pool, bool dies,
                                   const typename Sim::Particle& p, SlotIndex slot) {
  if constexpr (Policy::kRecycled > 0) {
    const unsigned int dying = __ballot_sync(kFullWarp, dies);
    if (dying != 0)
      keep_dead_slots(pool.dead, dying, dies ? slot : 0, dies ? steps_in_phase(p, ph.window) : 0);
  }
}

// Warp-collective: the lanes that are `running` advance `p` by Policy::kStepsPerIteration steps,
// or until it ends; their children go to the pool (dead particles a full pool's spill overwrites
// are counted in `tally`).
template <class Handoff, class Sim, class Policy>
__device__ void advance_iteration(const DevicePhase<Sim>& ph,
                                  WarpPool<typename Sim::Particle, Policy>& pool, bool running,
                                  typename Sim::Particle& p, StepDraws& draws, SlotTally& tally) {
#pragma unroll 1
  for (uint32_t k = 0; k < Policy::kStepsPerIteration; ++k) {
    typename Sim::Particle child;
    const bool spawns = running && has_work(p.tag, ph.window) &&
                        advance<Sim>(p, child, ph.params, draws, ph.window) == Fate::kSpawned;
    const unsigned int spawners = __ballot_sync(kFullWarp, spawns);
    if (spawners != 0) pool_children<Handoff>(ph, pool, spawners, child, tally);
  }
}

// Warp-collective: runs the particles the lanes hold (`p`, from slot `own`; a lane without one
// has `own` null) and the children they spawn, lanes whose particle died taking children from
// the pool (run_family, where the sim's particles can die). A lane whose particle reached the end
// of the phase takes none: the pool's children were born earlier and still have steps to go, which
// they take in a later pickup with others of their age rather than here with the rest of the warp
// idle. Ends when no lane holds a particle; or, where `may_hand_on`, after at least one iteration,
// when fewer than Policy::kMinLanes (the fewest lanes a warp keeps running with) do and the warp
// has slots to spare (SlotTally::spare_slots): those few are then handed to new slots for a later
// pickup with others (their own slots read kEmpty again). The pool is written out at the end.
// Particles end in their own slots; pooled ones that end alive take a slot of an own particle that
// died in this warp where the policy keeps those (Policy::kRecycled; end_pooled), else a new one;
// those that die are tallied. Returns, in every lane, how many particles of own slots ended in this
// call, vacated ones included.
template <class Handoff, class Sim, class Policy>
__device__ unsigned int run_pooled_family(const DevicePhase<Sim>& ph,
                                          WarpPool<typename Sim::Particle, Policy>& pool,
                                          typename Sim::Particle& p, typename Sim::Particle* own,
                                          bool may_hand_on, SlotTally& tally) {
  bool running = own != nullptr && has_work(p.tag, ph.window);
  bool pooled = false;
  bool at_end = own != nullptr && !running;  // published and stored only once it ended alive
  if (at_end) *own = p;
  unsigned int ended = __popc(__ballot_sync(kFullWarp, at_end));
  StepDraws draws = running ? draws_for(ph, p) : StepDraws(ph.key, 0, 0);
  for (bool stepped = false;; stepped = true) {
    const unsigned int idle = __ballot_sync(kFullWarp, !running && !at_end);
    if (idle != 0 && pool.count != 0 && (take_children(pool, idle, p) & lane_bit())) {
      running = pooled = true;
      draws = draws_for(ph, p);
    }
    const unsigned int busy = __ballot_sync(kFullWarp, running);
    const unsigned int owners = __ballot_sync(kFullWarp, running && !pooled);
    const bool hand_on = may_hand_on && stepped && __popc(busy) < Policy::kMinLanes &&
                         tally.spare_slots() >= __popc(owners);
    if (busy == 0 || hand_on) {
      if (pool.count != 0) write_out<Handoff>(ph, pool);
      if (busy == 0) break;
      hand_to_slots<Handoff>(ph, busy, p);
      if (running && !pooled) {
        own->tag.status = kEmpty;
        ++tally.vacated;
      }
      ended += __popc(owners);
      break;
    }
    advance_iteration<Handoff>(ph, pool, running, p, draws, tally);
    const bool finished = running && !has_work(p.tag, ph.window);
    if (finished && !pooled) *own = p;
    // Only an own particle that finished dead here gives up its slot: not an at_end lane's (its
    // particle came ended, and the lane runs none), nor one that hand_on vacates (its particle
    // still runs as the slot is set to kEmpty). Kept before end_pooled, so that this iteration's
    // survivors may take them.
    const bool dies = finished && !pooled && !is_alive(p.tag);
    keep_own_dead_slot(ph, pool, dies, p, dies ? static_cast<SlotIndex>(own - ph.particles) : 0);
    at_end = at_end || (finished && is_alive(p.tag));
    end_pooled<Handoff>(ph, pool, finished && pooled, p, tally);
    ended += __popc(__ballot_sync(kFullWarp, finished && !pooled));
    if (finished) running = false;
  }
  return ended;
}

// Warp-collective: runs the particles the lanes hold (`p`, from slot `own`; a lane without one
// has `own` null) and their children to the end of the phase, and returns, in every lane, how
// many particles of own slots ended (run_pooled_family). Where the sim's particles never die
// (kParticlesDie), no lane frees up before the phase end, and a lane there takes no children: a
// pool would only buffer them, and its iterations' votes cost mvp's cheap steps a third more
// time (docs/performance.md, "Sims whose particles never die"). Each lane then runs its particle
// to the end, the seed's loop, handing each child to a slot of its own.
template <class Handoff, class Sim, class Policy>
__device__ unsigned int run_family(const DevicePhase<Sim>& ph,
                                   WarpPool<typename Sim::Particle, Policy>& pool,
                                   typename Sim::Particle& p, typename Sim::Particle* own,
                                   bool may_hand_on, SlotTally& tally) {
  if constexpr (kParticlesDie<Sim>) {
    return run_pooled_family<Handoff>(ph, pool, p, own, may_hand_on, tally);
  } else {
    if (own != nullptr) {
      run_to_end_spawning<Handoff>(ph, p);
      *own = p;
    }
    return __popc(__ballot_sync(kFullWarp, own != nullptr));
  }
}

}  // namespace sb
