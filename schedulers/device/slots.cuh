// Handing particles between threads through device memory.
//
// A slot is published by writing the particle with status kEmpty, then storing kAlive with
// release semantics; a consumer that loads kAlive with acquire semantics sees the whole
// particle. Slots at and past the counter n always read kEmpty (the driver zeroes them), so a
// consumer may wait on a slot before its producer has claimed it.
#pragma once

#include <cooperative_groups.h>
#include <cuda/atomic>

#include "core/particle.hpp"
#include "schedulers/device/phase.cuh"

namespace sb {

using DeviceAtomicU32 = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;
using DeviceAtomicSlot = cuda::atomic_ref<SlotIndex, cuda::thread_scope_device>;

// Adds `value` to one of the phase's DeviceCounters and returns what it held (relaxed, device
// scope); every add to a 64-bit counter goes through here. Not cuda::atomic_ref's fetch_add, which
// takes a generic address: shared memory has no 64-bit add, so ptxas follows every generic 64-bit
// add with a test of the address's space and a compare-and-swap loop for shared memory, and the
// adding thread waits for the add's reply even where it ignores the result. atomicAdd on a counter
// reached from the kernel's parameter compiles to a global-memory add. (Measured on its own, the
// change made no difference to the time: the cost of 64-bit counters lies elsewhere;
// docs/performance.md, "64-bit slots and counters".)
__device__ inline SlotIndex add_to_counter(SlotIndex& counter, SlotIndex value) {
  return atomicAdd(&counter, value);
}

// add_to_counter after this thread's earlier writes and reads (release: a fence, then the add).
__device__ inline void release_add_to_counter(SlotIndex& counter, SlotIndex value) {
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
  atomicAdd(&counter, value);
}

// This thread's index in the grid, and the grid's threads: 64-bit, as slot indices are.
__device__ inline SlotIndex grid_thread_index() {
  return cooperative_groups::this_grid().thread_rank();
}
__device__ inline SlotIndex grid_threads() {
  return cooperative_groups::this_grid().num_threads();
}

template <class Particle>
__device__ inline void publish(Particle* slot, Particle p) {
  p.tag.status = kEmpty;
  *slot = p;
  DeviceAtomicU32(slot->tag.status).store(kAlive, cuda::memory_order_release);
}

// How particles leave a warp for global memory: published, for kernels in which other threads
// wait for them; or stored, for schedulers that read them only in a later kernel, which orders
// the stores (a release would make the storing lane wait for all its earlier stores).
struct Publish {
  template <class Particle>
  __device__ static void put(Particle* slot, const Particle& p) {
    publish(slot, p);
  }
};
struct Store {
  template <class Particle>
  __device__ static void put(Particle* slot, const Particle& p) {
    *slot = p;
  }
};

// True once the slot's particle is published (alive or dead); its fields may then be read.
// The status is read relaxed and the acquire is a fence taken only once it is set: an acquire
// empties the SM's L1 (which holds a sim's tables), and threads poll slots that are not set yet.
template <class Particle>
__device__ inline bool is_published(Particle* slot) {
  if (DeviceAtomicU32(slot->tag.status).load(cuda::memory_order_relaxed) == kEmpty) return false;
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  return true;
}

// Nonzero once the run must stop: a spawn overflowed or the watchdog fired. Read without
// ordering: it only shortens waits. Both words are read before either is tested, so that the
// two loads wait together.
template <class Sim>
__device__ inline bool stop_requested(const DevicePhase<Sim>& ph) {
  const unsigned int overflow = *reinterpret_cast<volatile unsigned int*>(&ph.counters->overflow);
  const unsigned int abort = *ph.abort;
  return (overflow | abort) != 0;
}

// Claims `count` consecutive places of `counter` below `limit`; returns the first, or `limit`
// when they do not fit (the overflow flag is then `full` and the run will fail with
// CapacityError). A stopped run may still claim: the claims end with the particles that make
// them, and checking first would cost every spawn a wait on the flags.
template <class Sim>
__device__ inline SlotIndex claim_below(const DevicePhase<Sim>& ph, SlotIndex& counter,
                                        SlotIndex count, SlotIndex limit, unsigned int full) {
  const SlotIndex first = add_to_counter(counter, count);
  if (first + count > limit) {
    DeviceAtomicU32(ph.counters->overflow).store(full, cuda::memory_order_relaxed);
    return limit;
  }
  return first;
}

// Claims `count` consecutive slots at the counter n; returns the first, or capacity when they do
// not fit (claim_below).
template <class Sim>
__device__ inline SlotIndex claim_slots(const DevicePhase<Sim>& ph, SlotIndex count) {
  return claim_below(ph, ph.counters->n, count, ph.capacity, kSlotsFull);
}

// One thread's spawn: a slot of its own, the child put there by `Handoff` (published, by default).
template <class Handoff = Publish, class Sim>
__device__ inline void spawn(const DevicePhase<Sim>& ph, const typename Sim::Particle& child) {
  const SlotIndex slot = claim_slots(ph, 1);
  if (slot < ph.capacity) Handoff::put(ph.particles + slot, child);
}

// The longest sleep between polls of back_off, by default.
inline constexpr unsigned int kBackOffNs = 1024;

// A thread that waits politely: sleeps between polls, twice as long each time up to `max_ns`, so
// that spinning warps leave issue slots to working ones.
__device__ inline void back_off(unsigned int& ns, unsigned int max_ns = kBackOffNs) {
  __nanosleep(ns);
  ns = ns < max_ns ? ns * 2 : ns;
}

}  // namespace sb
