// The two scheduler interfaces (docs/design.md §4) checked at compile time, so that a scheduler
// missing a member fails with one message naming it. The drivers call the checks where they
// instantiate a scheduler for a sim: run_on_host (schedulers/host_driver.hpp) for host engines,
// run_on_device (schedulers/device/driver.cuh) for GPU schedulers. The phase and setup types are
// parameters here so that this header needs no CUDA.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace sb {
namespace scheduler_interface {

template <class Engine, class Particle, class Phase, class Tally, class = void>
struct HasHostRunPhase : std::false_type {};
template <class Engine, class Particle, class Phase, class Tally>
struct HasHostRunPhase<Engine, Particle, Phase, Tally,
                       std::void_t<decltype(Engine::run_phase(
                           std::declval<std::vector<Particle>&>(), std::declval<const Phase&>()))>>
    : std::is_same<decltype(Engine::run_phase(std::declval<std::vector<Particle>&>(),
                                              std::declval<const Phase&>())),
                   Tally> {};

template <class Scheduler, class Phase, class = void>
struct HasDeviceRunPhase : std::false_type {};
template <class Scheduler, class Phase>
struct HasDeviceRunPhase<
    Scheduler, Phase,
    std::void_t<decltype(std::declval<Scheduler&>().run_phase(std::declval<const Phase&>(), 0ull))>>
    : std::true_type {};

}  // namespace scheduler_interface

// True, or a compile error naming what the host engine lacks (schedulers/host_driver.hpp).
template <class Engine, class Particle, class HostPhase, class HostTally>
constexpr bool check_host_engine() {
  static_assert(scheduler_interface::HasHostRunPhase<Engine, Particle, HostPhase, HostTally>::value,
                "a host engine must define `static HostTally run_phase(std::vector<Particle>&, "
                "const HostPhase<Sim>&)` (schedulers/host_driver.hpp)");
  return true;
}

// True, or a compile error naming what the GPU scheduler lacks (schedulers/device/driver.cuh).
// A scheduler of whole phases (schedulers/device/whole_phases.cuh) defines run_phases instead of
// run_phase.
template <class Scheduler, class DeviceSetup, class DevicePhase, bool kRunsWholePhases>
constexpr bool check_device_scheduler() {
  static_assert(std::is_constructible_v<Scheduler, const DeviceSetup&>,
                "a GPU scheduler must define the constructor `explicit Scheduler(const "
                "DeviceSetup&)` (schedulers/device/driver.cuh)");
  static_assert(scheduler_interface::HasDeviceRunPhase<Scheduler, DevicePhase>::value ||
                    kRunsWholePhases,
                "a GPU scheduler must define `void run_phase(const DevicePhase<Sim>&, SlotIndex "
                "n_start)` (schedulers/device/driver.cuh), or run_phases "
                "(schedulers/device/whole_phases.cuh)");
  return true;
}

}  // namespace sb
