// Dead slots that the warps of a group share (dynamic-warp --policy queue): a warp that keeps more
// dead slots than it is likely to need, or that runs out of work, gives them to its group's ring in
// device memory, and a warp that hands out children or ends pooled particles alive takes what it
// lacks from there before it claims new slots. Without it a dead slot stays with the warp that ran
// its particle, while the warps that hand out children (those with full pools) are often others and
// claim new ones. With it, pic's default workload comes close to one slot per live particle, for a
// little more time (docs/performance.md, "Slots and the live population").
//
// One ring for all warps took many times as long there: every give and take is a compare-and-swap
// on the ring's state, and thousands of warps retried on one word. Groups of 32 warps use nearly as
// few slots as one ring.
//
// A group's words: [0] the ring's state, places given << 32 | places taken (each mod 2^32: only
// their difference, at most kDeadSlotRing, is read); [1, kDeadSlotHeader) unused, so that no two
// groups' states share a 128-byte line; then kDeadSlotRing entries, each a RecycledSlots entry
// plus one (zero: not set). A giver claims places at most up to kDeadSlotRing past those taken,
// then stores each entry with release after its dead particle's store (which keep_dead_slots'
// __syncwarp orders before it); a taker claims places below those given, waits until each is
// set, acquires, clears it and overwrites the dead particle, as it would one of its own (the
// slot is read by no one else: its particle was fetched once and has ended). A giver whose place
// was taken and not cleared yet waits for its taker, which has claimed it and waits only on a
// lower place's giver, so every wait ends. The driver clears the rings before each phase: what a
// phase leaves there names dead particles that the phase end removes.
#pragma once

#include "schedulers/device/phase.cuh"
#include "schedulers/device/slot_recycler.cuh"
#include "schedulers/device/slots.cuh"

namespace sb {

inline constexpr unsigned int kWarpsSharingDeadSlots = 32;  // warps per group: 8 used more slots
inline constexpr uint32_t kDeadSlotRing = 4096;             // entries a group holds; a power of two
inline constexpr SlotIndex kDeadSlotHeader = 16;
// A warp gives its dead slots above half of this when it keeps more; 16 saved hardly a slot on pic
// and took more time than 48.
inline constexpr unsigned int kGiveDeadSlotsAbove = 48;

// The words of the rings of a grid of `warps` warps.
inline SlotIndex dead_slot_ring_words(uint64_t warps) {
  const uint64_t groups = (warps + kWarpsSharingDeadSlots - 1) / kWarpsSharingDeadSlots;
  return groups * (kDeadSlotHeader + kDeadSlotRing);
}

// The words of this warp's group (WorkQueue::dead_slots).
template <class Sim>
__device__ inline SlotIndex* dead_slot_group(const DevicePhase<Sim>& ph) {
  const uint64_t warp = (uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  return ph.queue.dead_slots + warp / kWarpsSharingDeadSlots * (kDeadSlotHeader + kDeadSlotRing);
}

// The ring's state with `given` and `taken` places, each mod 2^32.
__device__ inline SlotIndex ring_state(uint32_t given, uint32_t taken) {
  return SlotIndex{given} << 32 | taken;
}

// Claims up to `most` places of the group's ring, as many as its state allows (`available`:
// given, taken -> places), for a giver (`give`) or a taker; returns the first and sets `claimed`.
template <bool kGive>
__device__ uint32_t claim_ring_places(SlotIndex* group, uint32_t most, uint32_t& claimed) {
  DeviceAtomicSlot state(group[0]);
  SlotIndex seen = state.load(cuda::memory_order_relaxed);
  while (true) {
    const uint32_t given = static_cast<uint32_t>(seen >> 32), taken = static_cast<uint32_t>(seen);
    const uint32_t available = kGive ? kDeadSlotRing - (given - taken) : given - taken;
    claimed = most < available ? most : available;
    if (claimed == 0) return 0;
    const SlotIndex next =
        kGive ? ring_state(given + claimed, taken) : ring_state(given, taken + claimed);
    if (state.compare_exchange_weak(seen, next, cuda::memory_order_relaxed))
      return kGive ? given : taken;
  }
}

// Warp-collective: gives the warp's dead slots above its first `keep` to its group's ring, as
// many as the ring has room for.
template <class Sim, unsigned int kSize>
__device__ void give_dead_slots(const DevicePhase<Sim>& ph, RecycledSlots<kSize>& dead,
                                unsigned int keep) {
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int count = dead.count;
  if (count <= keep) return;
  SlotIndex* group = dead_slot_group(ph);
  uint32_t first = 0, given = 0;
  if (lane == 0) first = claim_ring_places<true>(group, count - keep, given);
  given = __shfl_sync(kFullWarp, given, 0);
  if (given == 0) return;
  first = __shfl_sync(kFullWarp, first, 0);
  for (unsigned int k = lane; k < given; k += 32) {
    DeviceAtomicSlot place(group[kDeadSlotHeader + ((first + k) & (kDeadSlotRing - 1))]);
    while (place.load(cuda::memory_order_relaxed) != 0) {
    }
    place.store(dead.entry[count - given + k] + 1, cuda::memory_order_release);
  }
  __syncwarp();
  if (lane == 0) dead.count = count - given;
  __syncwarp();
}

// Warp-collective: takes up to `wanted` dead slots from its group's ring into the warp's own, as
// many as were given and fit.
template <class Sim, unsigned int kSize>
__device__ void take_dead_slots(const DevicePhase<Sim>& ph, RecycledSlots<kSize>& dead,
                                unsigned int wanted) {
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int count = dead.count;
  const unsigned int room = kSize - count;
  if (wanted == 0 || room == 0) return;
  SlotIndex* group = dead_slot_group(ph);
  uint32_t first = 0, taken = 0;
  if (lane == 0) first = claim_ring_places<false>(group, wanted < room ? wanted : room, taken);
  taken = __shfl_sync(kFullWarp, taken, 0);
  if (taken == 0) return;
  first = __shfl_sync(kFullWarp, first, 0);
  for (unsigned int k = lane; k < taken; k += 32) {
    DeviceAtomicSlot place(group[kDeadSlotHeader + ((first + k) & (kDeadSlotRing - 1))]);
    SlotIndex entry;
    while ((entry = place.load(cuda::memory_order_relaxed)) == 0) {
    }
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    place.store(0, cuda::memory_order_relaxed);
    dead.entry[count + k] = entry - 1;
  }
  __syncwarp();
  if (lane == 0) dead.count = count + taken;
  __syncwarp();
}

}  // namespace sb
