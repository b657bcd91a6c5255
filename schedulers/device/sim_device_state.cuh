// The device counterpart of core/sim_state.hpp: a sim with tables or grid work defines
//   class DeviceState {
//     DeviceState(const HostState&, cudaStream_t);   // uploads what its Params point to
//     Params params() const;                         // pointers into device memory
//     void before_phase(Particle*, uint64_t n, PhaseWindow, cudaStream_t);  // grid kernels
//   };
// Over several ranks, before_phase sums its grids over them (ranks/device_reduce.hpp).
// in a CUDA header of its folder, which sims/device_states.cuh lists for the GPU driver and the
// yardstick (the places that build one); other sims get this default.
// A sim whose grid work may stream (kStreamsPhaseWork, core/sim_state.hpp) splits before_phase
// into gathering its grids from the particles, batch by batch, and each batch's read of them, so
// that a run whose particles stay in host memory does it a batch at a time (docs/design.md §11):
//     void begin_gather(cudaStream_t);                           // the grids emptied
//     void gather(const Particle*, uint64_t n, cudaStream_t);    // a batch's particles added
//     bool end_gather(cudaStream_t);  // the grids made (summed over the ranks), or false where
//                                     // they need every particle gathered again, from begin
//     void on_batch(Particle*, uint64_t n, cudaStream_t);  // a batch given what it reads of them
// Gathering adds exact sums (counts, fixed-point charge), so the batches may come in any order
// and at any time between two phases: a streamed run gathers the next phase's grids from each
// batch's survivors as it runs the phase. Its before_phase(ps, n) is begin_gather, gather(ps, n)
// until end_gather is true, then on_batch(ps, n).
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

// The before_phase of a device state whose grid work streams: every particle, as one batch.
template <class State, class Particle>
void gather_all(State& state, Particle* ps, uint64_t n, cudaStream_t stream) {
  do {
    state.begin_gather(stream);
    state.gather(ps, n, stream);
  } while (!state.end_gather(stream));
  state.on_batch(ps, n, stream);
}

}  // namespace sb
