// dynamic-warp (seed 003 §3.4.4; "Dynamic" in §5.3): one persistent kernel with the loop
// inverted: every iteration, each lane advances the particle it holds by a few steps, so a lane
// whose particle ends takes a new one at the next iteration instead of idling until the warp's
// longest particle ends.
//
// Per iteration, warp-synchronously (schedulers/device/pool_agent.cuh):
//   1. lanes without work take children from the warp's pool, newest first, then (policy
//      spill) children the warp spilled to its dead slots;
//   2. lanes still without work take the next slots from a global counter, one atomic per warp;
//   3. a lane whose slot is published loads it;
//   4. lanes holding a particle take the policy's steps per iteration, children going to the
//      pool; a full pool is written out to global memory, all its slots claimed with one atomic
//      (policy spill: first to the slots of the warp's dead particles, slot_recycler.cuh);
//   5. lanes whose particle ended store it back, or, if it came from the pool, give it a slot
//      only if it is still alive: a slot of the warp whose particle died, where it has one
//      (schedulers/device/slot_recycler.cuh), else a new one;
//   6. if lanes elsewhere wait for work (the slot counter is past the claimed slots), the pool
//      is written out for them (policy queue: handed out through a queue of slot indices, in
//      the warp's dead slots first, schedulers/device/work_queue.cuh; so also a full pool; the
//      warp takes dead slots that other warps of its group gave, and gives its own above
//      kGiveDeadSlotsAbove / 2, schedulers/device/shared_dead_slots.cuh);
//   7. once no lane holds a particle and the pool and the spilled children are none, the
//      particles of slots that ended are counted into `done`, and the warp leaves if that was
//      the end, or waits for work (policy queue: its dead slots going to its group first).
// The seed takes one step per iteration and writes every child to global memory; its
// bookkeeping (votes, fetch and load checks, the convergence points they force) then costs
// about as much as the step itself (our SASS and Nsight Compute counts, docs/performance.md).
// Keeping children in the warp spares each the slot claim, the release store, the fetch and the
// acquire load (which empties the SM's L1) of a trip through global memory; where particles live
// a few dozen steps (pic) that trip is most of a particle's cost. The warp exits when none of
// its lanes holds a particle and `done` equals n: every slot's particle has ended, and, since a
// warp counts the slot particles it ran only when it holds no particle, no warp holds any.
// Nothing exists that could still spawn. (A counter of particles alive, updated every
// iteration, was the kernel's most contended word.)
//
// The seed shares one buffer among a block's warps under a lock; a pool per warp needs no lock
// (the seed's critical section, §3.4.4).
//
// The constants it was tuned with are a policy type (DynamicWarpPolicy; docs/design.md "Tuning
// policies"), chosen at run time with --policy.
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/persistent_pool.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

template <unsigned int kPoolSize, uint32_t kSteps, int kRegisters, class Slots = ReuseDeadSlots<>>
struct DynamicWarpPolicy : PoolPolicy<kPoolSize, kSteps, Slots> {
  using Base = PoolPolicy<kPoolSize, kSteps, Slots>;
  // Registers per thread for large particles (pool_register_cap). sm90's 72: 28 warps per SM for
  // pic instead of the fewer that ptxas's own register count allowed. ptxas spills a few
  // bookkeeping values to L1, and the extra warps hide more of the step's latency: pic's mobility
  // steps run faster than uncapped, and than at 80 or 64 (docs/performance.md, "What each scheduler
  // costs and why", has the times). A sim's step may ask for more (kStepRegisters: pic's Poisson
  // field and air's space charge take 80).
  static constexpr int kLargeParticleRegisters = kRegisters;
  static constexpr uint32_t kLookEvery = 4;  // iterations between looks at the run's counters
  // The pause of a warp out of work: short and fixed, not a growing back-off, since such a warp
  // should see new work or the run's end soon after either appears.
  static constexpr unsigned int kIdlePauseNs = 64;

  static std::vector<PolicyConstant> constants() {
    return {{"pool", kPoolSize},
            {"steps_per_iteration", kSteps},
            {"large_particle_registers", kRegisters},
            {"look_every", kLookEvery},
            {"idle_pause_ns", kIdlePauseNs},
            {"recycled_slots", Base::kRecycled},
            {"spill_to_dead_slots", Base::kSpill ? 1 : 0},
            {"work_queue", Base::kQueue ? 1 : 0},
            {"warps_sharing_dead_slots", Base::kQueue ? kWarpsSharingDeadSlots : 0},
            {"give_dead_slots_above", Base::kQueue ? kGiveDeadSlotsAbove : 0}};
  }
};

struct DynamicWarpSm90 : DynamicWarpPolicy<32, 8, 72> {
  static constexpr const char* kName = kSm90Policy;
  static constexpr const char* kDescription = kSm90What;
};
struct DynamicWarpSteps16 : DynamicWarpPolicy<32, 16, 72> {
  static constexpr const char* kName = kSteps16Policy;
  static constexpr const char* kDescription = kSteps16What;
};
struct DynamicWarpRegs80 : DynamicWarpPolicy<32, 8, 80> {
  static constexpr const char* kName = "regs-80";
  static constexpr const char* kDescription =
      "80 registers for large particles (pic, air): fewer spills, fewer resident warps";
};
// Slots closer to the live population for more time: on pic's default workload fewer slots per
// live particle than sm90's and slower mobility steps (docs/performance.md, "Slots and the live
// population").
struct DynamicWarpSpill : DynamicWarpPolicy<32, 8, 72, SpillToDeadSlots<>> {
  static constexpr const char* kName = "spill";
  static constexpr const char* kDescription =
      "a full pool's children spilled to the warp's dead slots, not to new ones: fewer slots, "
      "slower (docs/performance.md)";
};
// Children written out for other warps handed out through a queue of slot indices, in dead
// slots of the warp or of others in its group (schedulers/device/work_queue.cuh,
// shared_dead_slots.cuh).
struct DynamicWarpQueue : DynamicWarpPolicy<32, 8, 72, QueueInDeadSlots<>> {
  static constexpr const char* kName = "queue";
  static constexpr const char* kDescription =
      "children written out for other warps handed out through a queue of slot indices, in the "
      "slots of dead particles that groups of 32 warps share: fewer slots, 16 bytes of queue per "
      "slot of --capacity, slower (docs/performance.md)";
};
using DynamicWarpPolicies = PolicyList<DynamicWarpSm90, DynamicWarpSteps16, DynamicWarpRegs80,
                                       DynamicWarpSpill, DynamicWarpQueue>;

const SchedulerPolicies& dynamic_warp_policies() {
  static const SchedulerPolicies p =
      policies_of<DynamicWarpPolicies>({{90, DynamicWarpSm90::kName}});
  return p;
}

// Whether the warp has spilled children to take back.
template <class Particle, class Policy>
__device__ bool spills(const WarpPool<Particle, Policy>& pool) {
  if constexpr (Policy::kSpill) return pool.dead.spilled != 0;
  return false;
}

template <class Sim, class Policy, int kRegisters>
__global__ void __maxnreg__(kRegisters) dynamic_warp(DevicePhase<Sim> ph) {
  using Particle = typename Sim::Particle;
  extern __shared__ unsigned char shared[];
  WarpPool<Particle, Policy>& pool = empty_pool<Particle, Policy>(shared);
  const unsigned int lane = threadIdx.x & 31;

  DeviceAtomicSlot next(ph.counters->next);
  SlotIndex work = kNoSlot;  // the work item this lane took and has not loaded yet
  SlotIndex slot = kNoSlot;  // the global slot of the particle it runs
  bool running = false;      // its particle is loaded and taking steps
  bool pooled = false;       // that particle came from the pool: it has no slot
  bool spilled = false;      // it was spilled to a slot already counted as done (take_spilled)
  bool exhausted = false;    // the slot counter passed the capacity: no more global work
  bool stop = false;         // a stop request was seen
  uint32_t iteration = 0;
  unsigned int withheld = 0;  // slot particles ended and not yet counted into `done`
  SlotTally tally;  // deaths this lane counts that hold no slot (pooled, or overwritten by it)
  Particle p;
  StepDraws draws(ph.key, 0, 0);
  while (true) {
    if (!stop) {
      const unsigned int idle = __ballot_sync(kFullWarp, !running && work == kNoSlot);
      if (idle != 0 && pool.count != 0 && (take_children(pool, idle, p) & lane_bit())) {
        running = pooled = true;
        draws = draws_for(ph, p);
      }
      if constexpr (Policy::kSpill) {
        const unsigned int empty = __ballot_sync(kFullWarp, !running && work == kNoSlot);
        if (empty != 0 && pool.dead.spilled != 0 &&
            (take_spilled(pool.dead, empty, ph.particles, p, slot) & lane_bit())) {
          running = spilled = true;
          pooled = false;
          draws = draws_for(ph, p);
        }
      }
      const unsigned int need = __ballot_sync(kFullWarp, !running && work == kNoSlot && !exhausted);
      if (need != 0) {
        const int leader = __ffs(need) - 1;
        SlotIndex first = 0;
        if (static_cast<int>(lane) == leader)
          first = add_to_counter(ph.counters->next, __popc(need));
        first = __shfl_sync(kFullWarp, first, leader);
        if (need & lane_bit()) {
          const SlotIndex mine = first + lanes_below(need);
          exhausted = mine >= work_limit<Policy::kQueue>(ph);
          work = exhausted ? kNoSlot : mine;
        }
      }
      if (!running && work != kNoSlot) {
        slot = published_slot<Policy::kQueue>(ph, work);
        if (slot != kNoSlot) {
          work = kNoSlot;
          p = ph.particles[slot];
          draws = draws_for(ph, p);
          running = true;
          pooled = spilled = false;
        }
      }
    }
    advance_iteration<Publish>(ph, pool, running, p, draws, tally);

    const bool finished = running && !has_work(p.tag, ph.window);
    const bool alive = is_alive(p.tag);
    if (finished && !pooled) ph.particles[slot] = p;
    // A slot whose particle died is kept for the warp's pooled particles that end alive, and with
    // policy spill for the children of a full pool (it is done all the same: what is stored there
    // has ended its phase, or is a child this warp runs before it counts again). A pooled
    // particle that ends alive takes one (end_pooled); where none is left it is published like a
    // child, and the lane that picks it up finds it finished and counts it (policy queue: it is
    // stored in a new slot, and no work item names it).
    keep_own_dead_slot(ph, pool, finished && !pooled && !alive, p, slot);
    if constexpr (Policy::kQueue) {
      if (pool.dead.count > kGiveDeadSlotsAbove)
        give_dead_slots(ph, pool.dead, kGiveDeadSlotsAbove / 2);
    }
    end_pooled<Publish>(ph, pool, finished && pooled, p, tally);
    withheld += __popc(__ballot_sync(kFullWarp, finished && !pooled && !spilled));
    if (finished) {
      slot = kNoSlot;
      running = spilled = false;
    }
    // Every few iterations, since each look waits for two loads: whether the run must stop, and
    // whether lanes elsewhere wait for work (they took slots past the claimed ones); those get
    // the pool.
    if (++iteration % Policy::kLookEvery == 0) {
      stop = stop_requested(ph);
      const bool starving = next.load(cuda::memory_order_relaxed) >
                            DeviceAtomicSlot(ph.counters->n).load(cuda::memory_order_relaxed);
      if (starving && pool.count != 0) hand_out_children<Publish>(ph, pool, tally);
    }

    // Out of work: the warp holds no particle without a slot and no spilled child, so the slot
    // particles it ended are counted into `done` (a release, after this warp's claims:
    // every slot claimed by a particle counted here is in n before `done` can equal it). Counted
    // here rather than as they end, since `done` is one word that every warp updates. A stopped
    // warp leaves its pool: the run has failed.
    if (__ballot_sync(kFullWarp, running) == 0 && ((pool.count == 0 && !spills(pool)) || stop)) {
      bool end = false;
      if (lane == 0) {
        if (withheld != 0) count_done(ph, withheld);
        end = stop || all_done(ph);
      }
      withheld = 0;
      if (__shfl_sync(kFullWarp, end, 0)) break;
      if constexpr (Policy::kQueue) give_dead_slots(ph, pool.dead, 0);
      __nanosleep(Policy::kIdlePauseNs);
    }
  }
  tally.flush(ph);
}

template <class Sim>
struct DynamicWarpKernel {
  template <class Policy, bool kLargest>
  auto operator()(Policy*, std::bool_constant<kLargest>) const {
    constexpr int kOwn = pool_register_cap<Sim>(Policy::kLargeParticleRegisters);
    return dynamic_warp < Sim, Policy, kLargest ? largest_block_cap<Sim>(kOwn) : kOwn > ;
  }
};

template <class Sim>
using DynamicWarp =
    PersistentPool<Sim, DynamicWarpPolicies, dynamic_warp_policies, DynamicWarpKernel<Sim>>;

}  // namespace

SchedulerEntry dynamic_warp_entry() {
  return {
      "dynamic-warp",
      "one persistent kernel, inverted loop: every lane a few steps per iteration (8 by default), "
      "children kept in a shared-memory pool per warp, warp-aggregated fetch (seed §3.4.4; "
      "\"Dynamic\")",
      SchedulerKind::kGpu,
      launch_knobs::grid_shape(),
      device_runners<DynamicWarp>(),
      dynamic_warp_policies()};
}

}  // namespace sb
