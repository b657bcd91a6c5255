// The device counterpart of core/sim_state.hpp: a sim with tables or grid work defines
//   class DeviceState {
//     DeviceState(const HostState&, cudaStream_t);   // uploads what its Params point to
//     Params params() const;                         // pointers into device memory
//     void before_phase(Particle*, uint64_t n, PhaseWindow, cudaStream_t);  // grid kernels
//   };
// Over several ranks, before_phase sums its grids over them (ranks/device_reduce.hpp).
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

}  // namespace sb
