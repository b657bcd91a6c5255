// Cloud-in-cell deposition on the host (docs/physics.md, "Self-consistent fields"): each
// particle adds its 8 corner weights, in 64-bit fixed point, to the nodes around it. Integer
// sums do not depend on the order of the additions, so any engine that adds the same corner
// units (fields/mesh.hpp) gets the same grid.
#pragma once

#include <cstdint>

#include "core/hostdev.hpp"
#include "fields/mesh.hpp"

namespace sb::fields {

// Adds sign * (the corner units of particle i) to charge[] for i = 0 .. count-1; pos(i) returns
// something with double members x, y, z in m (a sim's particle will do). With open boundaries
// the corners outside the cube are dropped. charge[] holds mesh.nodes() sums and is not zeroed:
// species of either sign accumulate into one grid.
template <class PositionOf>
void deposit(const Mesh& mesh, Boundary boundary, uint64_t count, PositionOf pos, int sign,
             int64_t* charge) {
  for (uint64_t i = 0; i < count; ++i) {
    const auto& p = pos(i);
    const Stencil s = stencil_of(mesh, p.x, p.y, p.z);
    for (int c = 0; c < 8; ++c) {
      const int64_t node = corner_node(mesh, boundary, s, c);
      if (node >= 0) charge[node] += sign * corner_units(s, c);
    }
  }
}

// The charge density (C/m^3) of a node that holds `units` fixed-point units of particles of
// charge q (C) each, the cell volume h^3 around it. One expression for host and device.
SB_HD inline double density_of(int64_t units, double q, double h) {
  return static_cast<double>(units) / kChargeUnit * q / (h * h * h);
}

// rho[i] = density_of(charge[i], charge_per_particle, h) for every node.
void charge_density(const Mesh& mesh, const int64_t* charge, double charge_per_particle,
                    double* rho);

}  // namespace sb::fields
