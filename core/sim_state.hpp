// What an engine holds of a sim for one run. A sim may own resources beyond its Params (tables
// loaded from files, a grid): it then defines
//   struct HostState {
//     explicit HostState(const RunConfig&);         // throws UsageError for bad input
//     Params params() const;                        // pointers into host memory
//     void before_phase(std::vector<Particle>&, PhaseWindow);  // grid work between phases
//   };
// and, for CUDA code, Sim::DeviceState (schedulers/device/sim_device_state.cuh). Sims without
// them (toy, mvp) get the defaults below, built from Sim::params(RunConfig).
#pragma once

#include <type_traits>
#include <vector>

#include "core/particle.hpp"
#include "core/run_config.hpp"

namespace sb {

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
