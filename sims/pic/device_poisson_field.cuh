// pic's --field poisson on the device (the host's is sims/pic/poisson_field.hpp): deposition
// with atomics in fixed point, the solve by cuFFT (--field-solver device) or by the host's FFTW
// (host: the density goes to the host and the potential comes back, so that the run gives
// cpu-serial's digest), the field and each particle's read of it, on the run's stream.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/errors.hpp"
#include "fields/device/deposit_device.hpp"
#include "fields/device/field_device.hpp"
#include "fields/device/poisson_device.hpp"
#include "fields/poisson.hpp"
#include "sims/pic/pic.hpp"

namespace sb::pic {

template <class P>
__global__ void read_fields(P* ps, uint32_t n, FieldView f) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) read_field(ps[i], f);
}

class DevicePoissonField {
 public:
  DevicePoissonField(const PoissonSetup& setup, cudaStream_t stream)
      : mesh_(setup.mesh),
        on_device_(setup.solve_on_device),
        charge_(check_fits(setup), "the Poisson field's charge"),
        rho_(mesh_.nodes(), "the Poisson field's charge density"),
        phi_(mesh_.nodes(), "the Poisson field's potential"),
        ex_(mesh_.nodes(), "the Poisson field's x component"),
        ey_(mesh_.nodes(), "the Poisson field's y component"),
        ez_(mesh_.nodes(), "the Poisson field's z component"),
        deposit_(mesh_, fields::Boundary::kPeriodic),
        solver_(on_device_ ? fields::make_device_solver(mesh_, fields::Boundary::kPeriodic, stream)
                           : fields::make_host_solver(mesh_, fields::Boundary::kPeriodic)) {
    if (!on_device_) {
      host_rho_.resize(mesh_.nodes());
      host_phi_.resize(mesh_.nodes());
    }
    // A zero field until the first poisson step: what a kernel that runs the step without the
    // phase work (bound) reads.
    for (double* e : {ex_.data(), ey_.data(), ez_.data()})
      SB_CUDA_CHECK(cudaMemsetAsync(e, 0, mesh_.nodes() * sizeof(double), stream));
  }

  FieldView view() const { return {ex_.data(), ey_.data(), ez_.data(), mesh_}; }

  template <class P>
  void update(P* ps, uint32_t n, cudaStream_t stream) {
    const uint64_t nodes = mesh_.nodes();
    SB_CUDA_CHECK(cudaMemsetAsync(charge_.data(), 0, nodes * sizeof(int64_t), stream));
    if (n > 0) {
      deposit_.deposit(fields::DepositVariant::kAtomic, {&ps->x, sizeof(P)}, n, -1, charge_.data(),
                       stream);
    }
    fields::device_charge_density(mesh_, charge_.data(), kElementaryCharge, rho_.data(), stream);
    if (on_device_) {
      solver_->solve(rho_.data(), phi_.data());
    } else {
      SB_CUDA_CHECK(cudaStreamSynchronize(stream));
      SB_CUDA_CHECK(cudaMemcpy(host_rho_.data(), rho_.data(), nodes * sizeof(double),
                               cudaMemcpyDeviceToHost));
      solver_->solve(host_rho_.data(), host_phi_.data());
      phi_.copy_from_host(host_phi_);  // synchronous: done before the field kernel below
    }
    fields::device_electric_field(mesh_, fields::Boundary::kPeriodic, phi_.data(), ex_.data(),
                                  ey_.data(), ez_.data(), stream);
    if (n == 0) return;
    read_fields<P><<<(n + 255) / 256, 256, 0, stream>>>(ps, n, view());
    SB_CUDA_CHECK(cudaGetLastError());
  }

 private:
  // The nodes of the charge grid, once the whole field is known to fit in the device's free
  // memory: found before the run starts, and said with the bytes needed and free.
  static uint64_t check_fits(const PoissonSetup& setup) {
    const uint64_t nodes = setup.mesh.nodes();
    const uint64_t need =
        6 * nodes * sizeof(double) +
        (setup.solve_on_device ? fields::solver_bytes(setup.mesh, fields::Boundary::kPeriodic) : 0);
    const DeviceMemory m = device_memory();
    if (need > m.free_bytes) {
      throw UsageError(fmt::format(
          "--grid: {} needs {} of device memory for the Poisson field; {}; accepted: a smaller "
          "--grid",
          setup.mesh.n, format_bytes(need), m.describe()));
    }
    return nodes;
  }

  fields::Mesh mesh_;
  bool on_device_;
  DeviceBuffer<int64_t> charge_;
  DeviceBuffer<double> rho_, phi_, ex_, ey_, ez_;
  fields::DeviceDeposit deposit_;
  std::unique_ptr<fields::PoissonSolver> solver_;
  std::vector<double> host_rho_, host_phi_;  // --field-solver host
};

}  // namespace sb::pic
