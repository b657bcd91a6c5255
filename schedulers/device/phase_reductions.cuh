// What the GPU driver reduces over a phase's particles (driver.cu, batches.cuh): the tally of the
// phase's counts, the digest, and a sim's observed sums, each as a Thrust functor.
#pragma once

#include <cstdint>

#include "core/digest.hpp"
#include "core/particle.hpp"
#include "core/sim_interface.hpp"

namespace sb {

struct PhaseTally {
  unsigned long long removed;
  unsigned long long steps;
  unsigned long long vacated;  // slots whose particle moved to another (pool_agent.cuh)
};

template <class Particle>
struct TallyParticle {
  PhaseWindow window;
  // A claimed slot that reads kEmpty was vacated: its particle moved to another slot.
  __device__ PhaseTally operator()(const Particle& p) const {
    if (p.tag.status == kEmpty) return {0, 0, 1};
    return {p.tag.status == kDead ? 1ull : 0ull, steps_in_phase(p, window), 0};
  }
};

struct AddTally {
  __device__ PhaseTally operator()(const PhaseTally& a, const PhaseTally& b) const {
    return {a.removed + b.removed, a.steps + b.steps, a.vacated + b.vacated};
  }
};

template <class Particle>
struct HashParticle {
  __device__ uint64_t operator()(const Particle& p) const { return particle_hash(p); }
};

template <class Sim>
struct PhaseSumsOf {
  typename Sim::Params prm;
  PhaseWindow window;
  __device__ typename Sim::PhaseSums operator()(const typename Sim::Particle& p) const {
    return Sim::phase_sums(p, prm, window);
  }
};

struct AddSums {
  template <class Sums>
  __device__ Sums operator()(const Sums& a, const Sums& b) const {
    return a + b;
  }
};

}  // namespace sb
