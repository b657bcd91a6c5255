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
#include "schedulers/device/watchdog.hpp"

namespace sb {

// Device-side counters of one phase; the driver sets n and live and zeroes the rest before each
// phase.
//
// n and held are the two halves of one 64-bit word (n the low one), so that a scheduler that
// keeps children without a slot can count them against the capacity, and give them slots
// later, with one atomic on both (schedulers/device/slots.cuh). Every spawned particle is in
// exactly one of the two: the capacity bounds n + held, as it bounds the slots of a scheduler
// that stores every particle.
struct DeviceCounters {
  unsigned int n;           // slots claimed: particles live in [0, n); past capacity on overflow
  unsigned int held;        // warp pools: children without a slot (pooled, or died there)
  unsigned int overflow;    // set once a spawn found no room
  unsigned int next;        // dynamic schedulers: the next slot to hand out
  unsigned int done;        // persistent schedulers: particles taken to the end (or moved)
  unsigned int live;        // dynamic-warp: particles created and not yet finished
  unsigned int barrier[2];  // gpu-iterate-global and -organised: hand-made grid barriers
  unsigned long long held_steps;  // warp pools: the particle-steps of the `held` particles
};
static_assert(offsetof(DeviceCounters, held) == 4 && alignof(DeviceCounters) == 8,
              "n and held form one little-endian 64-bit word");

template <class Sim>
struct DevicePhase {
  using Particle = typename Sim::Particle;

  Particle* particles;  // `capacity` slots; those at and past n read kEmpty
  uint32_t capacity;
  DeviceCounters* counters;
  const volatile uint32_t* abort;  // the watchdog's flag: nonzero once the run must stop
  typename Sim::Params params;
  DrawKey key;
  PhaseWindow window;
};

// Host side: how to launch, for the whole run.
struct DeviceSetup {
  const RunConfig& config;
  DeviceDescription device;
  cudaStream_t stream;
  Watchdog& watchdog;
};

}  // namespace sb
