#include "sims/pic/poisson_field.hpp"

#include <fmt/format.h>

#include "fields/mesh_nodes.hpp"

namespace sb::pic {

PoissonSetup poisson_setup(const RunConfig& c) {
  fields::Mesh mesh;
  mesh.n = fields::mesh_nodes(c, kGridNodes, kMostGridNodes);
  mesh.h = kCells * kCellSize / static_cast<double>(mesh.n);
  return {mesh, fields::solve_on_device(c)};
}

std::string field_what(const PoissonSetup& setup) {
  return fmt::format("--grid {} (the Poisson field)", setup.mesh.n);
}

HostPoissonField::HostPoissonField(const fields::Mesh& mesh)
    : field_(mesh, fields::Boundary::kPeriodic) {}

void HostPoissonField::update(std::vector<Particle>& ps) {
  field_.begin(field_.placed());
  field_.deposit(
      ps.size(), [&ps](uint64_t i) -> const Particle& { return ps[i]; }, -1);
  field_.solve(kElementaryCharge);
  const FieldView f = view();
  for (Particle& p : ps)
    read_field(p, f);
}

FieldView HostPoissonField::view() const {
  return {field_.ex(), field_.ey(), field_.ez(), field_.placed()};
}

}  // namespace sb::pic
