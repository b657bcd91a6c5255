#include "sims/pic/poisson_field.hpp"

#include <algorithm>

#include "fields/deposit.hpp"
#include "fields/field.hpp"

namespace sb::pic {

HostPoissonField::HostPoissonField(const fields::Mesh& mesh)
    : mesh_(mesh),
      solver_(fields::make_host_solver(mesh, fields::Boundary::kPeriodic)),
      charge_(new int64_t[mesh.nodes()]),
      rho_(new double[mesh.nodes()]),
      phi_(new double[mesh.nodes()]),
      ex_(new double[mesh.nodes()]),
      ey_(new double[mesh.nodes()]),
      ez_(new double[mesh.nodes()]) {}

void HostPoissonField::update(std::vector<Particle>& ps) {
  std::fill(charge_.get(), charge_.get() + mesh_.nodes(), 0);
  fields::deposit(
      mesh_, fields::Boundary::kPeriodic, ps.size(),
      [&ps](uint64_t i) -> const Particle& { return ps[i]; }, -1, charge_.get());
  fields::charge_density(mesh_, charge_.get(), kElementaryCharge, rho_.get());
  solver_->solve(rho_.get(), phi_.get());
  fields::electric_field(mesh_, fields::Boundary::kPeriodic, phi_.get(), ex_.get(), ey_.get(),
                         ez_.get());
  const FieldView f = view();
  for (Particle& p : ps)
    read_field(p, f);
}

FieldView HostPoissonField::view() const {
  return {ex_.get(), ey_.get(), ez_.get(), mesh_};
}

}  // namespace sb::pic
