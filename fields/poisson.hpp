// PLACEHOLDER for the host half's fields/poisson.hpp (branch fields-host), with the interface
// both halves agreed; replaced by theirs at the merge.
#pragma once

#include <memory>

#include "fields/mesh.hpp"

namespace sb::fields {

class PoissonSolver {
 public:
  virtual ~PoissonSolver() = default;
  virtual void solve(const double* rho, double* phi) = 0;
};

std::unique_ptr<PoissonSolver> make_host_solver(const Mesh& mesh, Boundary boundary);

}  // namespace sb::fields
