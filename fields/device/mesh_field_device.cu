#include "fields/device/mesh_field_device.hpp"

#include "core/cuda_check.hpp"
#include "fields/device/field_device.hpp"
#include "fields/device/poisson_device.hpp"
#include "ranks/device_reduce.hpp"

namespace sb::fields {

Mesh DeviceMeshField::fitting(const Mesh& mesh, Boundary boundary, bool solve_on_device,
                              const std::string& what) {
  const uint64_t solver = solve_on_device ? solver_bytes(mesh, boundary) : 0;
  const DeviceMemory m = device_memory();
  require_field_fits(what, mesh, solver, m.free_bytes, m.describe());
  return mesh;
}

DeviceMeshField::DeviceMeshField(const Mesh& solver_mesh, Boundary boundary, bool solve_on_device,
                                 const std::string& what, const std::string& owner,
                                 cudaStream_t stream)
    : solver_mesh_(fitting(solver_mesh, boundary, solve_on_device, what)),
      placed_(solver_mesh),
      boundary_(boundary),
      names_{owner + " charge",   owner + " charge density", owner + " potential",
             owner + " field, x", owner + " field, y",       owner + " field, z"},
      charge_(solver_mesh.nodes(), names_[0].c_str()),
      rho_(solver_mesh.nodes(), names_[1].c_str()),
      phi_(solver_mesh.nodes(), names_[2].c_str()),
      ex_(solver_mesh.nodes(), names_[3].c_str()),
      ey_(solver_mesh.nodes(), names_[4].c_str()),
      ez_(solver_mesh.nodes(), names_[5].c_str()),
      deposit_(solver_mesh, boundary),
      solver_(solver_mesh, boundary, solve_on_device, stream) {
  for (double* e : {ex_.data(), ey_.data(), ez_.data()})
    SB_CUDA_CHECK(cudaMemsetAsync(e, 0, solver_mesh_.nodes() * sizeof(double), stream));
}

void DeviceMeshField::begin(const Mesh& placed, cudaStream_t stream) {
  placed_ = placed;
  deposit_.place(placed);
  SB_CUDA_CHECK(cudaMemsetAsync(charge_.data(), 0, solver_mesh_.nodes() * sizeof(int64_t), stream));
}

void DeviceMeshField::deposit(DevicePositions positions, uint64_t count, int sign,
                              cudaStream_t stream) {
  deposit_.deposit(DepositVariant::kAtomic, positions, count, sign, charge_.data(), stream);
}

void DeviceMeshField::solve(double unit_charge, cudaStream_t stream) {
  // Each rank deposited its own particles: the sum is every particle's charge, exactly, and
  // every rank solves for the same field (docs/design.md §10).
  ranks::sum_on_device(ranks::world(), charge_.data(), solver_mesh_.nodes(), stream);
  device_charge_density(solver_mesh_, charge_.data(), unit_charge, rho_.data(), stream);
  solver_.solve(rho_.data(), phi_.data(), stream);
  device_electric_field(placed_, boundary_, phi_.data(), ex_.data(), ey_.data(), ez_.data(),
                        stream);
}

}  // namespace sb::fields
