// Slots that follow the live population: a warp keeps the slots whose particles died in it and
// gives them to its pooled particles that end the phase alive, instead of claiming new slots for
// those (docs/design.md §3; docs/performance.md, "Slots and the live population"): dynamic-warp in
// its kernel, dynamic-block and cpu-sync through run_pooled_family, all with keep_own_dead_slot and
// end_pooled (pool_agent.cuh). A sim whose particles never die gets pools without them
// (PoolPolicyFor).
//
// Only a slot that no other thread will read again in the phase may be reused: one whose
// particle this warp fetched, ran and stored dead. The slots below the fetch counter are never
// fetched again (dynamic-warp, dynamic-block), nor are those of the generation being run
// (cpu-sync: the next generation reads only the slots claimed after it), so what is stored there
// is either a particle that has ended its phase (nobody has to run it) or, with a policy that
// spills (PoolPolicy::kSpill), a child that this warp takes back and runs itself before it counts
// its slots as done. The dead particle is stored as it dies and overwritten when its slot is
// reused; its death and steps are then the warp's to count (SlotTally), as those of a pooled child
// that died without a slot are. The slot counts as done (DeviceCounters::done) when its particle
// dies, once, so a warp keeps its dead slots while it waits for work, for the rest of the phase
// (of the generation, in cpu-sync, whose pools last one launch).
#pragma once

#include <cstdint>

#include "core/particle.hpp"
#include "schedulers/device/phase.cuh"

namespace sb {

inline constexpr unsigned int kFullWarp = 0xFFFFFFFFu;

// A warp's dead slots, in shared memory, each a slot's index and the steps its dead particle took
// in the phase (SlotTally counts them if the slot is reused) in one word: 40 bits of index (10^12
// slots, more than any device holds) and 24 of steps. kSize 0: a pool without recycling.
//
// The same array holds, from its top down, the slots into which the warp spilled children of a
// full pool (spill_children, pool_agent.cuh), as bare indices: those children still have steps to
// take, and the warp takes them back (take_spilled) before it fetches new work.
template <unsigned int kSize>
struct RecycledSlots {
  static constexpr unsigned int kSlotBits = 40;
  static constexpr uint32_t kMaxSteps = (1u << (64 - kSlotBits)) - 1;
  unsigned long long entry[kSize];  // dead slots in [0, count), spilled in [kSize - spilled, kSize)
  unsigned int count;
  unsigned int spilled;

  __device__ static SlotIndex slot_of(SlotIndex e) { return e & ((SlotIndex{1} << kSlotBits) - 1); }
  __device__ static uint32_t steps_of(SlotIndex e) { return static_cast<uint32_t>(e >> kSlotBits); }
};
template <>
struct RecycledSlots<0> {};

// The dead slots a warp keeps in the pool schedulers that reuse them (dynamic-warp, dynamic-block,
// cpu-sync): 64 * 8 + 8 = 520 bytes of shared memory per warp, beside pic's pool of 2.5 KB. In
// dynamic-warp 256 used no fewer slots on pic, and with their 2 KB per warp pic and air with space
// charge at block 1024 took longer (presumably the shared memory taken from L1; not profiled;
// docs/performance.md, "Slots and the live population").
inline constexpr unsigned int kRecycledSlotsPerWarp = 64;

__device__ inline unsigned int lane_bit() {
  return 1u << (threadIdx.x & 31);
}

__device__ inline unsigned int lanes_below(unsigned int mask) {
  return __popc(mask & (lane_bit() - 1));
}

// Warp-collective: the lanes in `dying` (their slot `slot` holds the dead particle that took
// `steps` steps) add it to the warp's dead slots, as many as there is room for (a particle of
// more than RecycledSlots::kMaxSteps steps keeps its slot).
template <unsigned int kSize>
__device__ void keep_dead_slots(RecycledSlots<kSize>& dead, unsigned int dying, SlotIndex slot,
                                uint32_t steps) {
  using Dead = RecycledSlots<kSize>;
  const unsigned int count = dead.count;
  const unsigned int offers =
      __ballot_sync(kFullWarp, (dying & lane_bit()) && steps <= Dead::kMaxSteps);
  const unsigned int rank = lanes_below(offers);
  const bool keeps = (offers & lane_bit()) && count + dead.spilled + rank < kSize;
  if (keeps) dead.entry[count + rank] = slot | (static_cast<SlotIndex>(steps) << Dead::kSlotBits);
  const unsigned int kept = __ballot_sync(kFullWarp, keeps);
  __syncwarp();
  if ((threadIdx.x & 31) == 0) dead.count = count + __popc(kept);
  __syncwarp();
}

// Warp-collective: the lanes in `takers` store their ended particle `p` in a dead slot of the
// warp, as many as there are, newest first; a dead particle overwritten is counted in `tally`.
// Returns the lanes that got one.
template <unsigned int kSize, class Particle, class Tally>
__device__ unsigned int reuse_dead_slots(RecycledSlots<kSize>& dead, unsigned int takers,
                                         Particle* particles, const Particle& p, Tally& tally) {
  const unsigned int count = dead.count;
  const unsigned int rank = lanes_below(takers);
  const bool gets = (takers & lane_bit()) && rank < count;
  if (gets) {
    using Dead = RecycledSlots<kSize>;
    const SlotIndex entry = dead.entry[count - 1 - rank];
    particles[Dead::slot_of(entry)] = p;
    tally.add_death_of(Dead::steps_of(entry));
  }
  const unsigned int got = __ballot_sync(kFullWarp, gets);
  __syncwarp();
  if ((threadIdx.x & 31) == 0) dead.count = count - __popc(got);
  __syncwarp();
  return got;
}

// Warp-collective: the lanes in `takers` take back children the warp spilled, as many as there
// are, newest first; returns those that got one, with `p` and its slot `slot` set. The slot was
// counted as done when its first particle died: the child ends there without being counted.
template <unsigned int kSize, class Particle>
__device__ unsigned int take_spilled(RecycledSlots<kSize>& dead, unsigned int takers,
                                     const Particle* particles, Particle& p, SlotIndex& slot) {
  const unsigned int spilled = dead.spilled;
  const unsigned int rank = lanes_below(takers);
  const bool gets = (takers & lane_bit()) && rank < spilled;
  if (gets) {
    slot = dead.entry[kSize - spilled + rank];
    p = particles[slot];
  }
  const unsigned int got = __ballot_sync(kFullWarp, gets);
  __syncwarp();
  if ((threadIdx.x & 31) == 0) dead.spilled = spilled - __popc(got);
  __syncwarp();
  return got;
}

}  // namespace sb
