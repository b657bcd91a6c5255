// pic's --field poisson on the device (the host's is sims/pic/poisson_field.hpp): the field
// module's pipeline on pic's periodic mesh (fields/device/mesh_field_device.hpp; --field-solver
// host solves by the host's FFTW, so that the run gives cpu-serial's digest), then each
// particle's read of the field, on the run's stream.
#pragma once

#include "core/cuda_check.hpp"
#include "core/grid_shape.hpp"
#include "fields/device/mesh_field_device.hpp"
#include "sims/pic/device_state.cuh"
#include "sims/pic/pic_poisson.hpp"

namespace sb {
namespace pic {

template <class P>
__global__ void read_fields(P* ps, uint64_t n, FieldView f) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) read_field(ps[i], f);
}

class DevicePoissonField {
 public:
  DevicePoissonField(const PoissonSetup& setup, cudaStream_t stream)
      : field_(setup.mesh, fields::Boundary::kPeriodic, setup.solve_on_device, field_what(setup),
               "the Poisson field's", stream) {}

  FieldView view() const { return {field_.ex(), field_.ey(), field_.ez(), field_.placed()}; }

  // The charge of the batches gathered, then the solve.
  void begin_gather(cudaStream_t stream) { field_.begin(field_.placed(), stream); }
  template <class P>
  void gather(const P* ps, uint64_t n, cudaStream_t stream) {
    if (n > 0) field_.deposit({&ps->x, sizeof(P)}, n, -1, stream);
  }
  bool end_gather(cudaStream_t stream) {
    field_.solve(kElementaryCharge, stream);
    return true;
  }

  // Each particle of a batch given the field at its cell.
  template <class P>
  void on_batch(P* ps, uint64_t n, cudaStream_t stream) {
    if (n == 0) return;
    read_fields<P><<<blocks_for(n, kGridBlock), kGridBlock, 0, stream>>>(ps, n, view());
    SB_CUDA_CHECK(cudaGetLastError());
  }

 private:
  fields::DeviceMeshField field_;
};

}  // namespace pic

class PicPoissonSim::DeviceState {
 public:
  DeviceState(const HostState& host, cudaStream_t stream)
      : field_(host.setup(), stream), tables_(host.tables(), stream) {}

  Params params() const { return {tables_.params(), field_.view()}; }

  void before_phase(Particle* ps, uint64_t n, PhaseWindow, cudaStream_t stream) {
    gather_all(field_, ps, n, stream);
  }
  // Its deposit streams (schedulers/device/sim_device_state.cuh).
  void begin_gather(cudaStream_t stream) { field_.begin_gather(stream); }
  void gather(const Particle* ps, uint64_t n, cudaStream_t stream) { field_.gather(ps, n, stream); }
  bool end_gather(cudaStream_t stream) { return field_.end_gather(stream); }
  void on_batch(Particle* ps, uint64_t n, cudaStream_t stream) { field_.on_batch(ps, n, stream); }

 private:
  pic::DevicePoissonField field_;  // first: its memory check comes before any allocation here
  PicSim::DeviceState tables_;     // the level table, as the mock's
};

}  // namespace sb
