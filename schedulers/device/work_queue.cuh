// Handing out work through a queue of slot indices (WorkQueue, phase.cuh), so that a child
// handed out for any warp to run may take the slot of a particle that died: the slots then
// follow the live population where handing out by slot needs a new slot for every such child
// (docs/performance.md, "Slots and the live population").
//
// A producer stores the particle in its slot, then the slot's index in the queue entry of a work
// item it claimed, with release; a consumer that took that item (from DeviceCounters::next)
// reads the entry relaxed until it is set, then acquires and loads the particle. Every entry is
// read by one consumer only, which clears it, so that the queue reads empty again at the next
// phase without a pass over it; entries of items never claimed were never set.
#pragma once

#include "schedulers/device/phase.cuh"
#include "schedulers/device/slots.cuh"

namespace sb {

inline constexpr SlotIndex kNoSlot = ~SlotIndex{0};

// One past the last work item the phase may hand out: slots, or with a queue (kQueue, the
// kernel's policy) its entries past the start.
template <bool kQueue, class Sim>
__device__ inline SlotIndex work_limit(const DevicePhase<Sim>& ph) {
  return kQueue ? ph.queue.start + ph.queue.size : ph.capacity;
}

// Claims `count` consecutive work items of the queue; returns the first, or work_limit<true> when
// they do not fit (the overflow flag is then kWorkQueueFull).
template <class Sim>
__device__ inline SlotIndex claim_work(const DevicePhase<Sim>& ph, SlotIndex count) {
  return claim_below(ph, ph.counters->n, count, work_limit<true>(ph), kWorkQueueFull);
}

// Claims `count` consecutive slots where work is queued (DeviceCounters::slots); returns the
// first, or the capacity when they do not fit (as claim_slots).
template <class Sim>
__device__ inline SlotIndex claim_queued_slots(const DevicePhase<Sim>& ph, SlotIndex count) {
  return claim_below(ph, ph.counters->slots, count, ph.capacity, kSlotsFull);
}

// Makes work item `item` (claimed with claim_work) the particle already stored in `slot`.
template <class Sim>
__device__ inline void enqueue(const DevicePhase<Sim>& ph, SlotIndex item, SlotIndex slot) {
  DeviceAtomicSlot(ph.queue.entry[item - ph.queue.start])
      .store(slot + 1, cuda::memory_order_release);
}

// The slot of work item `item` once its particle may be loaded, else kNoSlot. Without a queue the
// item is its slot, published as slots.cuh says. The acquire is a fence taken only once the
// entry is set, as in is_published.
template <bool kQueue, class Sim>
__device__ inline SlotIndex published_slot(const DevicePhase<Sim>& ph, SlotIndex item) {
  if constexpr (!kQueue) {
    return is_published(ph.particles + item) ? item : kNoSlot;
  } else {
    if (item < ph.queue.start) return item;
    DeviceAtomicSlot entry(ph.queue.entry[item - ph.queue.start]);
    const SlotIndex named = entry.load(cuda::memory_order_relaxed);
    if (named == 0) return kNoSlot;
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    entry.store(0, cuda::memory_order_relaxed);
    return named - 1;
  }
}

}  // namespace sb
