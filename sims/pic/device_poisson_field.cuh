// pic's --field poisson on the device (the host's is sims/pic/poisson_field.hpp): deposition
// with atomics in fixed point, the solve by cuFFT (--field-solver device) or by the host's FFTW
// (host: the density goes to the host and the potential comes back, so that the run gives
// cpu-serial's digest), the field and each particle's read of it, on the run's stream.
#pragma once

#include "core/cuda_check.hpp"
#include "core/grid_shape.hpp"
#include "fields/device/deposit_device.hpp"
#include "fields/device/field_device.hpp"
#include "fields/device/poisson_device.hpp"
#include "fields/device/run_solver.hpp"
#include "fields/poisson.hpp"
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
      : mesh_(fitting(setup)),
        charge_(mesh_.nodes(), "the Poisson field's charge"),
        rho_(mesh_.nodes(), "the Poisson field's charge density"),
        phi_(mesh_.nodes(), "the Poisson field's potential"),
        ex_(mesh_.nodes(), "the Poisson field's x component"),
        ey_(mesh_.nodes(), "the Poisson field's y component"),
        ez_(mesh_.nodes(), "the Poisson field's z component"),
        deposit_(mesh_, fields::Boundary::kPeriodic),
        solver_(mesh_, fields::Boundary::kPeriodic, setup.solve_on_device, stream) {
    // A zero field until the first poisson step: what a kernel that runs the step without the
    // phase work (bound) reads.
    for (double* e : {ex_.data(), ey_.data(), ez_.data()})
      SB_CUDA_CHECK(cudaMemsetAsync(e, 0, mesh_.nodes() * sizeof(double), stream));
  }

  FieldView view() const { return {ex_.data(), ey_.data(), ez_.data(), mesh_}; }

  template <class P>
  void update(P* ps, uint64_t n, cudaStream_t stream) {
    const uint64_t nodes = mesh_.nodes();
    SB_CUDA_CHECK(cudaMemsetAsync(charge_.data(), 0, nodes * sizeof(int64_t), stream));
    if (n > 0) {
      deposit_.deposit(fields::DepositVariant::kAtomic, {&ps->x, sizeof(P)}, n, -1, charge_.data(),
                       stream);
    }
    fields::device_charge_density(mesh_, charge_.data(), kElementaryCharge, rho_.data(), stream);
    solver_.solve(rho_.data(), phi_.data(), stream);
    fields::device_electric_field(mesh_, fields::Boundary::kPeriodic, phi_.data(), ex_.data(),
                                  ey_.data(), ez_.data(), stream);
    if (n == 0) return;
    read_fields<P><<<blocks_for(n, kGridBlock), kGridBlock, 0, stream>>>(ps, n, view());
    SB_CUDA_CHECK(cudaGetLastError());
  }

 private:
  // The setup's mesh, once the whole field is known to fit in the device's free memory: checked
  // before anything of it is allocated, and refused with the bytes needed and free.
  static fields::Mesh fitting(const PoissonSetup& setup) {
    const uint64_t solver =
        setup.solve_on_device ? fields::solver_bytes(setup.mesh, fields::Boundary::kPeriodic) : 0;
    const DeviceMemory m = device_memory();
    require_device_field(setup, solver, m.free_bytes, m.describe());
    return setup.mesh;
  }

  fields::Mesh mesh_;
  DeviceBuffer<int64_t> charge_;
  DeviceBuffer<double> rho_, phi_, ex_, ey_, ez_;
  fields::DeviceDeposit deposit_;
  fields::RunSolver solver_;
};

}  // namespace pic

class PicPoissonSim::DeviceState {
 public:
  DeviceState(const HostState& host, cudaStream_t stream)
      : field_(host.setup(), stream), tables_(host.tables(), stream) {}

  Params params() const { return {tables_.params(), field_.view()}; }

  void before_phase(Particle* ps, uint64_t n, PhaseWindow, cudaStream_t stream) {
    field_.update(ps, n, stream);
  }

 private:
  pic::DevicePoissonField field_;  // first: its memory check comes before any allocation here
  PicSim::DeviceState tables_;     // the level table, as the mock's
};

}  // namespace sb
