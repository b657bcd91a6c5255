// A sim's self-consistent field, the pipeline that pic's --field poisson and air's --space-charge
// share (docs/physics.md, "Self-consistent fields"): charge deposited in fixed point on a mesh,
// the charge density, Poisson's equation solved by FFT, and the electric field at the nodes. This
// is the host's; fields/device/mesh_field_device.hpp is the device's, step for step the same.
//
// A field is made for its solver's mesh. Each update deposits on, and gives the field of, a placed
// mesh with as many nodes: the solver's own where the mesh stays put (pic's periodic cube), or one
// that follows the particles (air's open mesh around its swarm), whose solver is then made for the
// unit mesh (spacing 1) with the charge per unit scaled to it (air::unit_mesh_charge).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "fields/deposit.hpp"
#include "fields/mesh.hpp"
#include "fields/poisson.hpp"

namespace sb::fields {

// The arrays of a field: the charge (int64 units), and the density, potential and three field
// components (doubles): 8 bytes a node each.
inline constexpr uint64_t kFieldArrays = 6;

// The device memory of a field on `mesh`: its arrays and `solver_bytes`, the device solver's
// (solver_bytes; 0 where the host solves).
uint64_t field_bytes(const Mesh& mesh, uint64_t solver_bytes);

// Before a GPU run allocates a field: AllocationError naming `what` (the option that sized it) and
// the bytes, unless field_bytes fits in the `free_bytes` the device has, which `says` says
// (core/cuda_check.hpp, device_memory()).
void require_field_fits(const std::string& what, const Mesh& mesh, uint64_t solver_bytes,
                        uint64_t free_bytes, const std::string& says);

class HostMeshField {
 public:
  HostMeshField(const Mesh& solver_mesh, Boundary boundary);

  // Starts an update on `placed` (the solver mesh's node count): the charge emptied.
  void begin(const Mesh& placed);
  // Adds sign * the charge units of `count` points, pos(i) having x, y, z (fields::deposit).
  template <class PositionOf>
  void deposit(uint64_t count, PositionOf pos, int sign) {
    fields::deposit(placed_, boundary_, count, pos, sign, charge_.get());
  }
  // The density of what was deposited, each unit of charge `unit_charge` on the solver's mesh;
  // the potential; the field on the placed mesh.
  void solve(double unit_charge);

  const Mesh& placed() const { return placed_; }
  const double* ex() const { return ex_.get(); }
  const double* ey() const { return ey_.get(); }
  const double* ez() const { return ez_.get(); }

 private:
  Mesh solver_mesh_, placed_;
  Boundary boundary_;
  // Made at the first solve, so that a field that never solves (a run's check, a GPU run that
  // solves with its own) makes no plans; FFTW_ESTIMATE's plans do not depend on when.
  std::unique_ptr<PoissonSolver> solver_;
  // Left uninitialised until the first update, so that making a field costs no memory traffic.
  std::unique_ptr<int64_t[]> charge_;
  std::unique_ptr<double[]> rho_, phi_, ex_, ey_, ez_;
};

}  // namespace sb::fields
