// The building blocks of GPU schedulers that keep a particle for one step or for the rest of
// the phase.
#pragma once

#include <cooperative_groups.h>

#include "core/particle.hpp"
#include "schedulers/device/phase.cuh"
#include "schedulers/device/slots.cuh"

namespace sb {

// Advances p by one step (it must have work); on a spawn returns true with `child` set.
template <class Sim>
__device__ inline bool step_once(const DevicePhase<Sim>& ph, typename Sim::Particle& p,
                                 typename Sim::Particle& child) {
  StepDraws draws(ph.key, p.tag.id(), draw_base(p.tag, ph.window));
  return advance<Sim>(p, child, ph.params, draws, ph.window) == Fate::kSpawned;
}

// How a child is made visible: kLaterLaunch where only later launches read it (plain stores),
// kConcurrently where threads of the same launch may be waiting for it (slots.cuh: publish).
enum class Visibility { kLaterLaunch, kConcurrently };

// Runs p to the end of the phase (the seed's simulateMany). The threads of the warp that spawn
// at the same step claim their slots with one atomic: with a collision every few dozen steps
// (pic), single-slot claims on one counter would queue at the L2.
template <Visibility kVisibility, class Sim>
__device__ inline void run_to_end_spawning(const DevicePhase<Sim>& ph, typename Sim::Particle& p) {
  namespace cg = cooperative_groups;
  StepDraws draws(ph.key, p.tag.id(), draw_base(p.tag, ph.window));
  typename Sim::Particle child;
  while (has_work(p.tag, ph.window)) {
    const bool spawned = advance<Sim>(p, child, ph.params, draws, ph.window) == Fate::kSpawned;
    const cg::coalesced_group together = cg::coalesced_threads();
    const unsigned int spawners = together.ballot(spawned);
    if (spawners == 0) continue;
    const unsigned int leader = __ffs(spawners) - 1;
    uint32_t first = 0;
    if (together.thread_rank() == leader) first = claim_slots(ph, __popc(spawners));
    first = together.shfl(first, leader);
    if (spawned && first < ph.capacity) {
      typename Sim::Particle* slot =
          ph.particles + first + __popc(spawners & ((1u << together.thread_rank()) - 1));
      if constexpr (kVisibility == Visibility::kConcurrently) {
        publish(slot, child);
      } else {
        *slot = child;
      }
    }
  }
}

// All particles claimed so far have been taken to the end: nothing can spawn any more. `done`
// is read first, with acquire, so that every spawn of a finished particle is already counted
// in the `n` read after it.
template <class Sim>
__device__ inline bool all_done(const DevicePhase<Sim>& ph) {
  const unsigned int done = DeviceAtomicU32(ph.counters->done).load(cuda::memory_order_acquire);
  return done == DeviceAtomicU32(ph.counters->n).load(cuda::memory_order_relaxed);
}

// Counts `count` particles as taken to the end, after their spawns (release).
template <class Sim>
__device__ inline void count_done(const DevicePhase<Sim>& ph, unsigned int count) {
  DeviceAtomicU32(ph.counters->done).fetch_add(count, cuda::memory_order_release);
}

// Reads the particle counter n (relaxed: launches and barriers order it).
template <class Sim>
__device__ inline uint32_t claimed(const DevicePhase<Sim>& ph) {
  return DeviceAtomicU32(ph.counters->n).load(cuda::memory_order_relaxed);
}

}  // namespace sb

namespace sb {

// Waits until `slot` is published (true) or until no particle ever will be (false: every
// claimed particle is done, or the run was stopped). Counts this thread's `finished` particles
// into `done` before waiting, so that the end can be seen (seed §3.3.3). A stop request is
// seen at every pickup, so that a stopped run ends within one particle's run.
template <class Sim>
__device__ inline bool await_slot(const DevicePhase<Sim>& ph, typename Sim::Particle* slot,
                                  unsigned int& finished) {
  if (stop_requested(ph)) return false;
  unsigned int ns = 32;
  while (!is_published(slot)) {
    if (finished > 0) {
      count_done(ph, finished);
      finished = 0;
    }
    if (all_done(ph) || stop_requested(ph)) return false;
    back_off(ns);
  }
  return true;
}

}  // namespace sb
