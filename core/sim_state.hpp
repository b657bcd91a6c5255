// What an engine holds of a sim for one run, in two parts (docs/design.md §4):
// - the setup, immutable, built once per run from its configuration and shared by everything that
//   needs it (the run's check, its phase plan, every engine): a sim with tables loaded from files
//   or a grid defines
//     struct Setup {
//       explicit Setup(const RunConfig&);  // throws UsageError for bad input
//       PhasePlan phases() const;
//     };
//   and sims without one (toy, mvp) get the default below, from Sim::params(RunConfig) and
//   Sim::phases(RunConfig);
// - the host state, what a run changes: a sim with a Setup defines
//     struct HostState {
//       explicit HostState(std::shared_ptr<const Setup>);
//       Params params() const;  // pointers into host memory (the setup's, the state's)
//       void before_phase(std::vector<Particle>&, PhaseWindow);  // grid work between phases
//     };
//   A HostState may also observe the particles after each phase (air: mean energy, drift):
//     Observables observe(const std::vector<Particle>& alive, PhaseWindow, PhaseEvents);
//   which every engine calls with the particles alive at the phase's end (in any order: its
//   results must not depend on it) and the phase's counts; it may throw RunError.
// And, for CUDA code, Sim::DeviceState (schedulers/device/sim_device_state.cuh).
#pragma once

#include <fmt/format.h>

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/errors.hpp"
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
struct SetupOf {
  class type {
   public:
    explicit type(const RunConfig& c) : params_(Sim::params(c)), plan_(Sim::phases(c)) {}
    typename Sim::Params params() const { return params_; }  // for the default HostState
    PhasePlan phases() const { return plan_; }

   private:
    typename Sim::Params params_;
    PhasePlan plan_;
  };
};

template <class Sim>
struct SetupOf<Sim, std::void_t<typename Sim::Setup>> {
  using type = typename Sim::Setup;
};

template <class Sim>
using SimSetup = typename SetupOf<Sim>::type;

template <class Sim, class = void>
struct HostStateOf {
  class type {
   public:
    explicit type(const std::shared_ptr<const SimSetup<Sim>>& setup) : params_(setup->params()) {}
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

// Whether the sim does work between phases (grid work, reported as its own part of the time,
// which needs every particle at once): a sim with a HostState does, unless its HostState declares
// `static constexpr bool kPhaseWork = false` (one that holds tables only).
template <class State, class = void>
struct StateHasPhaseWork : std::true_type {};

template <class State>
struct StateHasPhaseWork<State, std::void_t<decltype(State::kPhaseWork)>>
    : std::bool_constant<State::kPhaseWork> {};

template <class Sim, class = void>
struct HasPhaseWork : std::false_type {};

template <class Sim>
struct HasPhaseWork<Sim, std::void_t<typename Sim::HostState>>
    : StateHasPhaseWork<typename Sim::HostState> {};

// Whether that grid work may stream (docs/design.md §11): its device state gathers the grids
// from the particles a batch at a time and gives each batch what it reads of them
// (schedulers/device/sim_device_state.cuh), so a run may keep them in host memory. Its HostState
// declares `static constexpr bool kStreamsPhaseWork = true`.
template <class State, class = void>
struct StateStreamsPhaseWork : std::false_type {};

template <class State>
struct StateStreamsPhaseWork<State, std::void_t<decltype(State::kStreamsPhaseWork)>>
    : std::bool_constant<State::kStreamsPhaseWork> {};

// Whether a GPU run of Sim may stream its particles from host memory: a sim without grid work
// between phases, or one whose grid work streams.
template <class Sim>
inline constexpr bool kStreams =
    !HasPhaseWork<Sim>::value || StateStreamsPhaseWork<HostState<Sim>>::value;

// The setup of a run of Sim (not of a family: of one of its variants).
template <class Sim>
std::shared_ptr<const SimSetup<Sim>> make_setup(const RunConfig& c) {
  return std::make_shared<const SimSetup<Sim>>(c);
}

}  // namespace sb

namespace sb {

// Whether the sim observes its particles after each phase: the drivers sum Sim::phase_sums over
// the particles alive at its end (a Sim::PhaseSums, whose + is exact and so the same in any
// order), on the host or the device, and the sim's HostState turns the sum into observables.
template <class Sim, class = void>
struct Observes : std::false_type {};

template <class Sim>
struct Observes<Sim,
                std::void_t<decltype(std::declval<HostState<Sim>&>().observe(
                                std::declval<const typename Sim::PhaseSums&>(),
                                std::declval<PhaseWindow>(), std::declval<PhaseEvents>())),
                            decltype(Sim::phase_sums(std::declval<const typename Sim::Particle&>(),
                                                     std::declval<const typename Sim::Params&>(),
                                                     std::declval<PhaseWindow>()))>>
    : std::true_type {};

}  // namespace sb

namespace sb {

// Whether the sim summarizes its whole run (ccp: the profiles averaged over its last RF periods):
// its HostState gives the deposits that its grid work accumulated, `deposits()`, and turns the
// deposits of whichever state did that work (its own, or the DeviceState's, which gives them
// too) into the summary, `summarize(deposits)`, once every phase is done.
template <class Sim, class = void>
struct Summarizes : std::false_type {};

template <class Sim>
struct Summarizes<Sim, std::void_t<decltype(std::declval<const HostState<Sim>&>().summarize(
                           std::declval<const HostState<Sim>&>().deposits()))>>
    : std::true_type {};

// Adds a phase's observation to the run's, where it has one.
inline void add_observation(std::vector<Observables>& run, Observables phase) {
  if (!phase.empty()) run.push_back(std::move(phase));
}

}  // namespace sb
