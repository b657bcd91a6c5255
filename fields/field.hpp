// The electric field on the mesh and at a particle (docs/physics.md, "Self-consistent fields").
#pragma once

#include "core/hostdev.hpp"
#include "fields/mesh.hpp"

namespace sb::fields {

// -d phi / d(axis) at node `at`, whose coordinate on that axis is c, its neighbours `stride`
// apart in memory. electric_field and the device's field kernel (fields/device/) both compute
// every node with it, so the same bits.
SB_HD inline double minus_derivative(const double* phi, uint64_t at, uint64_t stride, int c, int n,
                                     Boundary boundary, double h) {
  if (boundary == Boundary::kPeriodic) {
    const uint64_t below = c == 0 ? at + (n - 1) * stride : at - stride;
    const uint64_t above = c == n - 1 ? at - (n - 1) * stride : at + stride;
    return -(phi[above] - phi[below]) / (2 * h);
  }
  if (c == 0) return -(-3 * phi[at] + 4 * phi[at + stride] - phi[at + 2 * stride]) / (2 * h);
  if (c == n - 1) return -(3 * phi[at] - 4 * phi[at - stride] + phi[at - 2 * stride]) / (2 * h);
  return -(phi[at + stride] - phi[at - stride]) / (2 * h);
}

// E = -grad phi at every node by the centred difference (phi[i+1] - phi[i-1]) / 2h, wrapped
// when periodic. Open: on the cube's faces, where a neighbour is missing, the one-sided
// second-order difference (-3 phi[0] + 4 phi[1] - phi[2]) / 2h (mirrored on the far face).
// mesh.n at least 3.
void electric_field(const Mesh& mesh, Boundary boundary, const double* phi, double* ex, double* ey,
                    double* ez);

// The field at (x, y, z) with the cloud-in-cell weights of the deposit, corners c = 0 .. 7 in
// order. Each weight is the deposit's own, corner_units / 2^32 (exact in double), not the
// unrounded product: a particle then reads its own charge's field with exactly the weights it
// deposited it with, and the self-force cancels to the solver's rounding; the unrounded weights
// differ from the deposited ones by up to 1.2e-10 each and leave a self-force of about 3e-10 of
// the field one cell away (docs/physics.md). The same operations on host and device, so the
// same bits. Corners outside the cube (open) contribute nothing.
SB_HD inline void gather(const Mesh& mesh, Boundary boundary, const double* ex, const double* ey,
                         const double* ez, double x, double y, double z, double e[3]) {
  const Stencil s = stencil_of(mesh, x, y, z);
  e[0] = e[1] = e[2] = 0;
  for (int c = 0; c < 8; ++c) {
    const int64_t node = corner_node(mesh, boundary, s, c);
    if (node < 0) continue;
    const double w = static_cast<double>(corner_units(s, c)) / kChargeUnit;
    e[0] += w * ex[node];
    e[1] += w * ey[node];
    e[2] += w * ez[node];
  }
}

}  // namespace sb::fields
