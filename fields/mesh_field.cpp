#include "fields/mesh_field.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/memory.hpp"
#include "fields/field.hpp"
#include "ranks/reduce.hpp"

namespace sb::fields {

static_assert(sizeof(int64_t) == sizeof(double), "every array holds 8 bytes per node");

uint64_t field_bytes(const Mesh& mesh, uint64_t solver_bytes) {
  return kFieldArrays * mesh.nodes() * sizeof(double) + solver_bytes;
}

void require_field_fits(const std::string& what, const Mesh& mesh, uint64_t solver_bytes,
                        uint64_t free_bytes, const std::string& says) {
  require_bytes("device", what, field_bytes(mesh, solver_bytes),
                fmt::format(" ({} arrays of {}^3 x 8 B{})", kFieldArrays, mesh.n,
                            solver_bytes == 0 ? "" : fmt::format(", cuFFT's {} B", solver_bytes)),
                free_bytes, says);
}

HostMeshField::HostMeshField(const Mesh& solver_mesh, Boundary boundary)
    : solver_mesh_(solver_mesh),
      placed_(solver_mesh),
      boundary_(boundary),
      charge_(allocate_array<int64_t>(solver_mesh.nodes(), "the field mesh's charge")),
      rho_(allocate_array<double>(solver_mesh.nodes(), "the field mesh's density")),
      phi_(allocate_array<double>(solver_mesh.nodes(), "the field mesh's potential")),
      ex_(allocate_array<double>(solver_mesh.nodes(), "the field mesh's field")),
      ey_(allocate_array<double>(solver_mesh.nodes(), "the field mesh's field")),
      ez_(allocate_array<double>(solver_mesh.nodes(), "the field mesh's field")) {}

void HostMeshField::begin(const Mesh& placed) {
  placed_ = placed;
  std::fill(charge_.get(), charge_.get() + solver_mesh_.nodes(), 0);
}

void HostMeshField::solve(double unit_charge) {
  if (!solver_) solver_ = make_host_solver(solver_mesh_, boundary_);
  // Each rank deposited its own particles: the sum is every particle's charge, exactly, and
  // every rank solves for the same field (docs/design.md §10).
  ranks::sum(ranks::world(), charge_.get(), solver_mesh_.nodes());
  charge_density(solver_mesh_, charge_.get(), unit_charge, rho_.get());
  solver_->solve(rho_.get(), phi_.get());
  electric_field(placed_, boundary_, phi_.get(), ex_.get(), ey_.get(), ez_.get());
}

}  // namespace sb::fields
