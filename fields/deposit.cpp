#include "fields/deposit.hpp"

namespace sb::fields {

void charge_density(const Mesh& mesh, const int64_t* charge, double charge_per_particle,
                    double* rho) {
  const uint64_t nodes = mesh.nodes();
  for (uint64_t i = 0; i < nodes; ++i)
    rho[i] = density_of(charge[i], charge_per_particle, mesh.h);
}

}  // namespace sb::fields
