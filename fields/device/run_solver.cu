#include "fields/device/run_solver.hpp"

#include "core/cuda_check.hpp"
#include "fields/device/poisson_device.hpp"

namespace sb::fields {

RunSolver::RunSolver(const Mesh& mesh, Boundary boundary, bool on_device, cudaStream_t stream)
    : on_device_(on_device),
      solver_(on_device ? make_device_solver(mesh, boundary, stream)
                        : make_host_solver(mesh, boundary)) {
  if (on_device_) return;
  host_rho_.resize(mesh.nodes());
  host_phi_.resize(mesh.nodes());
}

void RunSolver::solve(const double* rho, double* phi, cudaStream_t stream) {
  if (on_device_) {
    solver_->solve(rho, phi);
    return;
  }
  const size_t bytes = host_rho_.size() * sizeof(double);
  SB_CUDA_CHECK(cudaMemcpyAsync(host_rho_.data(), rho, bytes, cudaMemcpyDeviceToHost, stream));
  SB_CUDA_CHECK(cudaStreamSynchronize(stream));
  solver_->solve(host_rho_.data(), host_phi_.data());
  SB_CUDA_CHECK(cudaMemcpyAsync(phi, host_phi_.data(), bytes, cudaMemcpyHostToDevice, stream));
  SB_CUDA_CHECK(cudaStreamSynchronize(stream));  // host_phi_ is read until the copy is done
}

}  // namespace sb::fields
