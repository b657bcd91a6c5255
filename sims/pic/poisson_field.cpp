#include "sims/pic/poisson_field.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "fields/deposit.hpp"
#include "fields/mesh_nodes.hpp"

namespace sb::pic {
namespace {

// The charge (int64 units) and rho, phi, ex, ey, ez (doubles): one value each per node.
constexpr uint64_t kArrays = 6;
static_assert(sizeof(int64_t) == sizeof(double), "every array holds 8 bytes per node");

}  // namespace

PoissonSetup poisson_setup(const RunConfig& c) {
  fields::Mesh mesh;
  mesh.n = fields::power_of_two_nodes(grid(), c);
  mesh.h = kCells * kCellSize / static_cast<double>(mesh.n);
  return {mesh, field_solver().text(c) == "device"};
}

uint64_t device_field_bytes(const fields::Mesh& mesh, uint64_t solver_bytes) {
  return kArrays * mesh.nodes() * sizeof(double) + solver_bytes;
}

void require_device_field(const PoissonSetup& setup, uint64_t solver_bytes, uint64_t free_bytes,
                          const std::string& says) {
  const int n = setup.mesh.n;
  require_bytes("device", fmt::format("--grid {} (the Poisson field)", n),
                device_field_bytes(setup.mesh, solver_bytes),
                fmt::format(" ({} arrays of {}^3 x 8 B{})", kArrays, n,
                            solver_bytes == 0 ? "" : fmt::format(", cuFFT's {} B", solver_bytes)),
                free_bytes, says);
}

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
