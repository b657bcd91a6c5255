// The Poisson solve of a GPU run (a sim's --field-solver): on the device by cuFFT, or on the host
// by FFTW with the density copied there and the potential back, so that the run gives the CPU
// engines' potential bit for bit (docs/physics.md, "Self-consistent fields").
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "fields/mesh.hpp"
#include "fields/poisson.hpp"

namespace sb::fields {

class RunSolver {
 public:
  RunSolver(const Mesh& mesh, Boundary boundary, bool on_device, cudaStream_t stream);

  // phi from rho, both device pointers of mesh.nodes() doubles, in stream order: enqueued on the
  // device, or done on the host before it returns.
  void solve(const double* rho, double* phi, cudaStream_t stream);

 private:
  bool on_device_;
  std::unique_ptr<PoissonSolver> solver_;
  std::vector<double> host_rho_, host_phi_;  // the host's solve
};

}  // namespace sb::fields
