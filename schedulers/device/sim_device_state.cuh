// The device counterpart of core/sim_state.hpp: a sim with tables or grid work defines
//   class DeviceState {
//     DeviceState(const HostState&, cudaStream_t);   // uploads what its Params point to
//     Params params() const;                         // pointers into device memory
//     void before_phase(Particle*, uint64_t n, PhaseWindow, cudaStream_t);  // grid kernels
//     static constexpr bool kGridWork = true;  // where before_phase does any
//   };
// in a CUDA header of its folder, which sims/device_states.cuh lists for the GPU driver and the
// yardstick (the places that build one); other sims get this default.
#pragma once

#include <cuda_runtime_api.h>

#include <type_traits>

#include "core/sim_state.hpp"

namespace sb {

template <class Sim, class = void>
struct DeviceStateOf {
  class type {
   public:
    type(const HostState<Sim>& host, cudaStream_t) : params_(host.params()) {}
    typename Sim::Params params() const { return params_; }
    void before_phase(typename Sim::Particle*, uint64_t, PhaseWindow, cudaStream_t) {}

   private:
    typename Sim::Params params_;
  };
};

template <class Sim>
struct DeviceStateOf<Sim, std::void_t<typename Sim::DeviceState>> {
  using type = typename Sim::DeviceState;
};

template <class Sim>
using DeviceState = typename DeviceStateOf<Sim>::type;

// Whether the sim's device state does grid work between phases (pic's fields, air's space
// charge; `static constexpr bool kGridWork = true`), which the GPU driver does not yet sum over
// ranks (docs/design.md §10).
template <class Sim, class = void>
inline constexpr bool kDeviceGridWork = false;

template <class Sim>
inline constexpr bool kDeviceGridWork<Sim, std::void_t<decltype(DeviceState<Sim>::kGridWork)>> =
    DeviceState<Sim>::kGridWork;

}  // namespace sb
