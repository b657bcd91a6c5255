// Poisson's equation on the mesh, laplacian(phi) = -rho / eps0, by FFT (docs/physics.md,
// "Self-consistent fields"). A solver makes its plans and buffers once, when it is built, and
// then solves any number of times.
#pragma once

#include <memory>

#include "fields/mesh.hpp"

namespace sb::fields {

class PoissonSolver {
 public:
  virtual ~PoissonSolver();
  // phi (V) from rho (C/m^3), mesh.nodes() values each, x fastest. Periodic: the 7-point
  // Laplacian inverted exactly, rho's mean removed (a neutralising background) and phi's mean
  // 0. Open: the convolution of rho with the free-space Green's function (fields/green.hpp).
  virtual void solve(const double* rho, double* phi) = 0;
};

// The CPU solver (FFTW), with host pointers; mesh.n at least 3.
std::unique_ptr<PoissonSolver> make_host_solver(const Mesh& mesh, Boundary boundary);

}  // namespace sb::fields
