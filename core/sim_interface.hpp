// The sim interface (core/particle.hpp lists it; docs/design.md §4) checked at compile time, so
// that a sim missing a member fails with one message naming that member instead of pages of
// template errors from deep inside an engine. check_sim<Sim>() is called wherever an engine is
// instantiated for a sim (run_fns, schedulers/scheduler.hpp), so every sim meets every check.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/draws.hpp"
#include "core/particle.hpp"
#include "core/run_config.hpp"

namespace sb {

// Whether the sim draws its particles (Sim::picture).
template <class Sim, class = void>
inline constexpr bool kHasPicture = false;

template <class Sim>
inline constexpr bool
    kHasPicture<Sim, std::void_t<decltype(Sim::picture(
                         std::declval<const std::vector<typename Sim::Particle>&>()))>> = true;

// Whether the sim can split its run into phases of so many steps, each phase end a frame of an
// animation (--frames): it then defines `static const DeclaredParameter& frame_every()`, the
// parameter (one of its own) that gives the steps per frame.
template <class Sim, class = void>
inline constexpr bool kDrawsFrames = false;

template <class Sim>
inline constexpr bool kDrawsFrames<Sim, std::void_t<decltype(Sim::frame_every())>> =
    std::is_same_v<decltype(Sim::frame_every()), const DeclaredParameter&>;

// The observable that counts the sim's real events in a phase, whose rate `run` reports beside
// particle-steps (Sim::kWorkObservable, e.g. air's real collisions, null collisions apart); null
// where the sim names none.
template <class Sim, class = void>
inline constexpr const char* kWorkObservable = nullptr;

template <class Sim>
inline constexpr const char* kWorkObservable<Sim, std::void_t<decltype(Sim::kWorkObservable)>> =
    Sim::kWorkObservable;

// Whether a particle of the sim can die (Sim::kParticlesDie; true unless the sim says it cannot:
// mvp and toy). Where none dies, the pool schedulers keep no dead slots (pool_policy.cuh,
// PoolPolicyFor): there would be none to keep, and the array for them costs shared memory. Only
// memory and speed depend on it, never a result: a death in such a sim keeps its slot, as it did
// before slots were reused.
template <class Sim, class = void>
inline constexpr bool kParticlesDie = true;

template <class Sim>
inline constexpr bool kParticlesDie<Sim, std::void_t<decltype(Sim::kParticlesDie)>> =
    Sim::kParticlesDie;

// The fewest registers per thread that a scheduler kernel capped for the sim's particle size should
// leave the sim's step (Sim::kStepRegisters; 0 unless the sim says: the cap alone). A step that
// reads a mesh field keeps the field's values live beside the particle: under dynamic-warp's cap of
// 72, pic's Poisson points and air's space charge ran slower than at 80 (docs/performance.md,
// "Registers for a step that reads a field", has the measurements). Only speed depends on it.
template <class Sim, class = void>
inline constexpr int kStepRegisters = 0;

template <class Sim>
inline constexpr int kStepRegisters<Sim, std::void_t<decltype(Sim::kStepRegisters)>> =
    Sim::kStepRegisters;

// Whether the sim's kernels take more registers than a block of 1024 threads leaves a thread (64):
// Sim::kLargeStep where the sim says, else whether its particles have more than 64 bytes, as pic's
// and air's have in double. Their reduced-precision variants (core/precision.hpp) say so: their
// particles are smaller, their steps as long. Schedulers give such sims a second instantiation
// bounded to blocks of 1024, and their warp pools a larger register cap
// (schedulers/device/grid.cuh). Only speed and the block sizes that launch depend on it.
template <class Sim, class = void>
inline constexpr bool kLargeStep = sizeof(typename Sim::Particle) > 64;

template <class Sim>
inline constexpr bool kLargeStep<Sim, std::void_t<decltype(Sim::kLargeStep)>> = Sim::kLargeStep;

// A table that a run of the sim reads (pic's cross sections), as the text of the file the sim
// reads it back from, and what it is in a few words ("10000 levels, the seed's synthetic table").
struct SimTable {
  std::string text;
  std::string what;
};

// Whether the sim writes its table for `schedbench table` (Sim::table).
template <class Sim, class = void>
inline constexpr bool kWritesTable = false;

template <class Sim>
inline constexpr bool
    kWritesTable<Sim, std::void_t<decltype(Sim::table(std::declval<const RunConfig&>()))>> =
        std::is_same_v<decltype(Sim::table(std::declval<const RunConfig&>())), SimTable>;

namespace sim_interface {

// A visitor that accepts any field, to ask whether Particle::visit(f) exists.
struct AnyField {
  template <class T>
  void operator()(const char*, const T&) const {}
};

template <class Sim, class = void>
struct HasParticle : std::false_type {};
template <class Sim>
struct HasParticle<Sim, std::void_t<typename Sim::Particle>> : std::true_type {};

template <class Sim, class = void>
struct HasParams : std::false_type {};
template <class Sim>
struct HasParams<Sim, std::void_t<typename Sim::Params>> : std::true_type {};

template <class Sim, class = void>
struct HasTag : std::false_type {};
template <class Sim>
struct HasTag<Sim, std::void_t<decltype(Sim::Particle::tag)>>
    : std::is_same<decltype(Sim::Particle::tag), ParticleTag> {};

template <class Sim, class = void>
struct HasVisit : std::false_type {};
template <class Sim>
struct HasVisit<Sim, std::void_t<decltype(std::declval<const typename Sim::Particle&>().visit(
                         std::declval<AnyField&>()))>> : std::true_type {};

template <class Sim, class = void>
struct HasNames : std::false_type {};
template <class Sim>
struct HasNames<Sim,
                std::enable_if_t<std::is_convertible_v<decltype(Sim::kName), const char*> &&
                                 std::is_convertible_v<decltype(Sim::kDescription), const char*>>>
    : std::true_type {};

template <class Sim, class = void>
struct HasParameterList : std::false_type {};
template <class Sim>
struct HasParameterList<Sim, std::void_t<decltype(Sim::parameters())>>
    : std::is_convertible<decltype(Sim::parameters()), DeclaredParameters> {};

template <class Sim, class = void>
struct HasParamsOf : std::false_type {};
template <class Sim>
struct HasParamsOf<Sim, std::void_t<decltype(Sim::params(std::declval<const RunConfig&>()))>>
    : std::is_same<decltype(Sim::params(std::declval<const RunConfig&>())), typename Sim::Params> {
};

// A sim with tables gets its phases from its Setup and its Params from its HostState instead
// (core/sim_state.hpp).
template <class Sim, class = void>
struct HasSetup : std::false_type {};
template <class Sim>
struct HasSetup<Sim, std::void_t<decltype(std::declval<const typename Sim::Setup&>().phases()),
                                 decltype(std::declval<const typename Sim::HostState&>().params())>>
    : std::bool_constant<
          std::is_constructible_v<typename Sim::Setup, const RunConfig&> &&
          std::is_same_v<decltype(std::declval<const typename Sim::Setup&>().phases()),
                         PhasePlan> &&
          std::is_constructible_v<typename Sim::HostState,
                                  std::shared_ptr<const typename Sim::Setup>> &&
          std::is_same_v<decltype(std::declval<const typename Sim::HostState&>().params()),
                         typename Sim::Params>> {};

template <class Sim, class = void>
struct HasPhases : std::false_type {};
template <class Sim>
struct HasPhases<Sim, std::void_t<decltype(Sim::phases(std::declval<const RunConfig&>()))>>
    : std::is_same<decltype(Sim::phases(std::declval<const RunConfig&>())), PhasePlan> {};

template <class Sim, class = void>
struct HasInitial : std::false_type {};
template <class Sim>
struct HasInitial<Sim, std::void_t<decltype(Sim::initial(
                           uint64_t{}, std::declval<const typename Sim::Params&>(), DrawKey{}))>>
    : std::is_same<decltype(Sim::initial(uint64_t{}, std::declval<const typename Sim::Params&>(),
                                         DrawKey{})),
                   typename Sim::Particle> {};

template <class Sim, class = void>
struct HasStep : std::false_type {};
template <class Sim>
struct HasStep<Sim,
               std::void_t<decltype(Sim::step(
                   std::declval<typename Sim::Particle&>(), std::declval<typename Sim::Particle&>(),
                   std::declval<const typename Sim::Params&>(), std::declval<StepDraw&>()))>>
    : std::is_same<decltype(Sim::step(std::declval<typename Sim::Particle&>(),
                                      std::declval<typename Sim::Particle&>(),
                                      std::declval<const typename Sim::Params&>(),
                                      std::declval<StepDraw&>())),
                   Fate> {};

template <class Sim, class = void>
struct HasSimulatesChildren : std::false_type {};
template <class Sim>
struct HasSimulatesChildren<Sim, std::void_t<decltype(Sim::simulates_children(
                                     std::declval<const typename Sim::Params&>()))>>
    : std::is_same<decltype(Sim::simulates_children(std::declval<const typename Sim::Params&>())),
                   bool> {};

// True where the type is missing (reported by its own check above).
template <class Sim, class = void>
struct ParticleCopyable : std::true_type {};
template <class Sim>
struct ParticleCopyable<Sim, std::void_t<typename Sim::Particle>>
    : std::is_trivially_copyable<typename Sim::Particle> {};

template <class Sim, class = void>
struct ParamsCopyable : std::true_type {};
template <class Sim>
struct ParamsCopyable<Sim, std::void_t<typename Sim::Params>>
    : std::is_trivially_copyable<typename Sim::Params> {};

}  // namespace sim_interface

// True, or a compile error naming the first member Sim lacks. The Particle- and Params-dependent
// checks are skipped while those types are missing, so that only the root cause is reported. The
// parameters a sim reads are checked where it is registered (sims/catalog.cpp): a family's
// variants declare none, their family lists them (core/sim_list.hpp).
template <class Sim>
constexpr bool check_sim() {
  namespace si = sim_interface;
  constexpr bool particle = si::HasParticle<Sim>::value, params = si::HasParams<Sim>::value;
  static_assert(particle, "a sim must define `using Particle = ...;` (core/particle.hpp)");
  static_assert(params, "a sim must define `using Params = ...;` (core/particle.hpp)");
  static_assert(!particle || si::HasTag<Sim>::value,
                "a sim's Particle must have a member `ParticleTag tag`");
  static_assert(!particle || si::HasVisit<Sim>::value,
                "a sim's Particle must define `template <class F> SB_HD void visit(F&& f) const` "
                "calling f(name, value) for every field, tag included");
  static_assert(si::ParticleCopyable<Sim>::value,
                "a sim's Particle must be trivially copyable (engines copy it as bytes)");
  static_assert(si::ParamsCopyable<Sim>::value,
                "a sim's Params must be trivially copyable (kernels take it by value)");
  static_assert(si::HasNames<Sim>::value,
                "a sim must define `static constexpr const char* kName` and `kDescription`");
  static_assert(!params || si::HasSetup<Sim>::value ||
                    (si::HasParamsOf<Sim>::value && si::HasPhases<Sim>::value),
                "a sim must define `static Params params(const RunConfig&)` and `static PhasePlan "
                "phases(const RunConfig&)`, or a `Setup` constructed from a RunConfig with "
                "`PhasePlan phases() const` and a `HostState` constructed from a "
                "`std::shared_ptr<const Setup>` with `Params params() const` (core/sim_state.hpp)");
  static_assert(!particle || !params || si::HasInitial<Sim>::value,
                "a sim must define `static Particle initial(uint64_t index, const Params&, "
                "DrawKey)`");
  static_assert(!particle || !params || si::HasStep<Sim>::value,
                "a sim must define `SB_HD static Fate step(Particle&, Particle&, const Params&, "
                "StepDraw&)`");
  static_assert(!params || si::HasSimulatesChildren<Sim>::value,
                "a sim must define `SB_HD static bool simulates_children(const Params&)`");
  return true;
}

}  // namespace sb
