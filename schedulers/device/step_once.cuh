// The building blocks of GPU schedulers that keep a particle for one step or for the rest of
// the phase.
#pragma once

#include "core/particle.hpp"
#include "schedulers/device/phase.cuh"
#include "schedulers/device/slots.cuh"

namespace sb {

// The draws of a particle from the step it is at.
template <class Sim>
__device__ inline StepDraws draws_for(const DevicePhase<Sim>& ph, const typename Sim::Particle& p) {
  return StepDraws(ph.key, p.tag.id(), draw_base(p.tag, ph.window));
}

// Advances p by one step (it must have work); on a spawn returns true with `child` set.
template <class Sim>
__device__ inline bool step_once(const DevicePhase<Sim>& ph, typename Sim::Particle& p,
                                 typename Sim::Particle& child) {
  StepDraws draws = draws_for(ph, p);
  return advance<Sim>(p, child, ph.params, draws, ph.window) == Fate::kSpawned;
}

// Runs p to the end of the phase, each child given a slot of its own and put there by `Handoff`
// (published, by default: the seed's simulateMany).
template <class Handoff = Publish, class Sim>
__device__ inline void run_to_end_spawning(const DevicePhase<Sim>& ph, typename Sim::Particle& p) {
  run_to_end<Sim>(p, ph.params, ph.key, ph.window,
                  [&ph](const typename Sim::Particle& child) { spawn<Handoff>(ph, child); });
}

// All particles claimed so far have been taken to the end: nothing can spawn any more. `done`
// is read first, with acquire, so that every spawn of a finished particle is already counted
// in the n read after it.
template <class Sim>
__device__ inline bool all_done(const DevicePhase<Sim>& ph) {
  const SlotIndex done = DeviceAtomicSlot(ph.counters->done).load(cuda::memory_order_acquire);
  return done == DeviceAtomicSlot(ph.counters->n).load(cuda::memory_order_relaxed);
}

// Counts `count` particles as taken to the end, after their spawns (release).
template <class Sim>
__device__ inline void count_done(const DevicePhase<Sim>& ph, unsigned int count) {
  release_add_to_counter(ph.counters->done, count);
}

// Reads the particle counter n (relaxed: launches and barriers order it).
template <class Sim>
__device__ inline SlotIndex claimed(const DevicePhase<Sim>& ph) {
  return DeviceAtomicSlot(ph.counters->n).load(cuda::memory_order_relaxed);
}

}  // namespace sb

namespace sb {

// Waits until `slot` is published (true) or until no particle ever will be (false: every
// claimed particle is done, or the run was stopped). Counts this thread's `finished` particles
// into `done` before waiting, so that the end can be seen (seed §3.3.3). A stop request is
// seen at every pickup, so that a stopped run ends within one particle's run. Sleeps up to
// `max_ns` between polls (back_off).
template <class Sim>
__device__ inline bool await_slot(const DevicePhase<Sim>& ph, typename Sim::Particle* slot,
                                  unsigned int& finished, unsigned int max_ns = kBackOffNs) {
  if (stop_requested(ph)) return false;
  unsigned int ns = 32;
  while (!is_published(slot)) {
    if (finished > 0) {
      count_done(ph, finished);
      finished = 0;
    }
    if (all_done(ph) || stop_requested(ph)) return false;
    back_off(ns, max_ns);
  }
  return true;
}

// dynamic-thread's loop (seed 003 §3.1.9): for each k that the counter `next` hands out, waits
// for slot first + k to be published (await_slot) and runs its particle to the end, each child
// published in a slot of its own; until no particle ever will be, or until the slots handed out
// reach `end`. The particles before `first` must count as done.
template <class Sim>
__device__ inline void run_published_slots(const DevicePhase<Sim>& ph, SlotIndex first,
                                           SlotIndex end, unsigned int max_ns = kBackOffNs) {
  unsigned int finished = 0;
  for (SlotIndex i = first + add_to_counter(ph.counters->next, 1); i < end;
       i = first + add_to_counter(ph.counters->next, 1)) {
    typename Sim::Particle* slot = ph.particles + i;
    if (!await_slot(ph, slot, finished, max_ns)) return;
    typename Sim::Particle p = *slot;
    run_to_end_spawning(ph, p);
    *slot = p;
    ++finished;
  }
  if (finished > 0) count_done(ph, finished);
}

}  // namespace sb
