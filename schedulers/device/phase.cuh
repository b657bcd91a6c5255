// What a GPU scheduler is given for one phase: the particle slots and counters on the device
// (DevicePhase, passed to kernels by value) and the host-side launch context (DeviceSetup).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "core/device.hpp"
#include "core/draws.hpp"
#include "core/particle.hpp"
#include "core/run_config.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/watchdog.hpp"

namespace sb {

// A particle slot's index, and counts of slots: 64-bit, so that a run may hold as many
// particles as device memory does (an H200 holds 3.5e9 of mvp's 40 bytes; an unsigned 32-bit
// index stops at 4.3e9, and the signed one of CUB's defaults at 2.1e9). The type of CUDA's
// 64-bit atomics.
using SlotIndex = unsigned long long;

// Device-side counters of one phase; the driver sets n and zeroes the rest before each phase.
//
// Schedulers with warp pools (schedulers/device/pool_agent.cuh) keep children without a slot;
// those that die there never take one, and dynamic-warp gives the slots of particles that died
// to others (schedulers/device/slot_recycler.cuh). Both kinds of death are added to `held` as
// each warp exits, so that the driver can count every particle the phase held: n + held, less
// the slots vacated by particles that moved (driver.cu). The capacity bounds n alone.
//
// The order is measured, not cosmetic: every word that threads poll while they wait for a phase to
// end (n, done, next, overflow) lies in the struct's first 32-byte sector (the struct is a
// cudaMalloc'd buffer of its own, aligned to 256 bytes). With `done` at bytes 32-39, the second
// sector, dynamic-warp and static-full took markedly longer on small pic runs (docs/performance.md,
// "64-bit slots and counters").
struct DeviceCounters {
  SlotIndex n;            // slots claimed: particles live in [0, n); past capacity on overflow
  SlotIndex done;         // persistent schedulers: particles taken to the end (or moved)
  SlotIndex next;         // dynamic schedulers: the next slot to hand out
  unsigned int overflow;  // set once a spawn found no room
  SlotIndex held;         // warp pools: particles that died and hold no slot
  unsigned long long held_steps;  // warp pools: the particle-steps of the `held` particles
  SlotIndex slots;  // work-queue schedulers (WorkQueue): the slots claimed, where n counts work
  unsigned int barrier[2];  // gpu-iterate-global and -organised: hand-made grid barriers
};
static_assert(offsetof(DeviceCounters, n) + sizeof(SlotIndex) <= 32 &&
                  offsetof(DeviceCounters, done) + sizeof(SlotIndex) <= 32 &&
                  offsetof(DeviceCounters, next) + sizeof(SlotIndex) <= 32 &&
                  offsetof(DeviceCounters, overflow) + sizeof(unsigned int) <= 32,
              "the polled counters must share the first 32-byte sector");

// DeviceCounters::overflow: a slot claim found no room (claim_slots), or a work queue did
// (claim_work, work_queue.cuh).
inline constexpr unsigned int kSlotsFull = 1;
inline constexpr unsigned int kWorkQueueFull = 2;

// The counters as a phase starts: `n` slots in use, nothing else counted yet.
inline DeviceCounters counters_at_start(SlotIndex n) {
  DeviceCounters c{};
  c.n = n;
  c.slots = n;
  return c;
}

// Work handed out through a queue of slot indices rather than by slot (dynamic-warp --policy
// queue; schedulers/device/work_queue.cuh). Work items [0, start) are the slots the phase
// starts with; item start + k is the slot that entry[k] names, once set. DeviceCounters::n then
// counts work items and DeviceCounters::slots the slots, so that a child handed out for any warp
// to run may take the slot of a particle that died. `size` entries, each 8 bytes: the queue
// holds kWorkQueuePerSlot entries per slot of the capacity.
struct WorkQueue {
  SlotIndex* entry = nullptr;  // null: the scheduler hands out work by slot
  SlotIndex start = 0;
  SlotIndex size = 0;
  SlotIndex* dead_slots = nullptr;  // the rings of dead slots that groups of warps share
                                    // (shared_dead_slots.cuh)
};
inline constexpr SlotIndex kWorkQueuePerSlot = 2;

template <class Sim>
struct DevicePhase {
  using Particle = typename Sim::Particle;

  Particle* particles;  // `capacity` slots; those at and past n read kEmpty
  SlotIndex capacity;
  DeviceCounters* counters;
  const volatile uint32_t* abort;  // the watchdog's flag: nonzero once the run must stop
  typename Sim::Params params;
  DrawKey key;
  PhaseWindow window;
  WorkQueue queue{};  // set by a scheduler that hands out work through a queue
};

// Host side: how to launch, for the whole run.
struct DeviceSetup {
  const RunConfig& config;
  LaunchKnobs knobs;  // the GPU driver's, read once from config
  DeviceDescription device;
  cudaStream_t stream;
  Watchdog& watchdog;
};

}  // namespace sb
