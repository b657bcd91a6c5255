// What an engine holds of a sim for one run. A sim may own resources beyond its Params (tables
// loaded from files, a grid): it then defines
//   struct HostState {
//     explicit HostState(const RunConfig&);         // throws UsageError for bad input
//     Params params() const;                        // pointers into host memory
//     void before_phase(std::vector<Particle>&, PhaseWindow);  // grid work between phases
//   };
// A HostState may also observe the particles after each phase (air: mean energy, drift):
//     Observables observe(const std::vector<Particle>& alive, PhaseWindow, PhaseEvents);
// which every engine calls with the particles alive at the phase's end (in any order: its
// results must not depend on it) and the phase's counts; it may throw RunError.
// And, for CUDA code, Sim::DeviceState (schedulers/device/sim_device_state.cuh). Sims without
// them (toy, mvp) get the defaults below, built from Sim::params(RunConfig).
#pragma once

#include <type_traits>
#include <utility>
#include <vector>

#include "core/particle.hpp"
#include "core/run_config.hpp"
#include "core/run_result.hpp"

namespace sb {

// What happened to the population in one phase.
struct PhaseEvents {
  uint64_t start;    // particles at its start
  uint64_t spawned;  // children born in it
  uint64_t removed;  // particles that died in it
};

template <class Sim, class = void>
struct HostStateOf {
  class type {
   public:
    explicit type(const RunConfig& c) : params_(Sim::params(c)) {}
    typename Sim::Params params() const { return params_; }
    void before_phase(std::vector<typename Sim::Particle>&, PhaseWindow) {}

   private:
    typename Sim::Params params_;
  };
};

template <class Sim>
struct HostStateOf<Sim, std::void_t<typename Sim::HostState>> {
  using type = typename Sim::HostState;
};

template <class Sim>
using HostState = typename HostStateOf<Sim>::type;

// Whether the sim does work between phases (grid work, reported as its own part of the time).
template <class Sim, class = void>
struct HasPhaseWork : std::false_type {};

template <class Sim>
struct HasPhaseWork<Sim, std::void_t<typename Sim::HostState>> : std::true_type {};

}  // namespace sb

namespace sb {

// Whether the sim's HostState observes its particles after each phase.
template <class Sim, class = void>
struct Observes : std::false_type {};

template <class Sim>
struct Observes<Sim, std::void_t<decltype(std::declval<HostState<Sim>&>().observe(
                         std::declval<const std::vector<typename Sim::Particle>&>(),
                         std::declval<PhaseWindow>(), std::declval<PhaseEvents>()))>>
    : std::true_type {};

}  // namespace sb
