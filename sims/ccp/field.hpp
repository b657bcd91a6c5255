// ccp's field (docs/physics.md, "ccp: the Turner helium discharge"), what host and device share:
// linear (cloud-in-cell) weights on the nodes of a uniform 1D mesh, counted in 32-bit fixed point
// so that a deposit is an integer sum, the same in any order; the potential between a grounded
// electrode (x = 0) and a driven one (x = L) by a direct tridiagonal (Thomas) solve; the field at
// the nodes, and a particle's read of it.
#pragma once

#include <cstdint>

#include "core/hostdev.hpp"

namespace sb::ccp {

inline constexpr double kWeightScale = 4294967296.0;  // 2^32: a whole particle on the nodes

struct Mesh {
  uint32_t cells;  // nodes 0 .. cells
  double dx;       // m
  double inv_dx;
  double length;  // m
};

// The cell of a position in [0, L) and its distance from the cell's left node, in cells.
SB_HD inline uint32_t cell_of(const Mesh& m, double x, double& frac) {
  const double s = x * m.inv_dx;
  uint32_t j = static_cast<uint32_t>(s);
  if (j >= m.cells) j = m.cells - 1;
  frac = s - static_cast<double>(j);
  return j;
}

// A particle's weight on the right node of its cell, in units of 2^-32 (the left one has the
// rest of 2^32).
SB_HD inline uint64_t right_weight(double frac) {
  const double w = frac * kWeightScale;
  return w <= 0 ? 0 : w >= kWeightScale ? uint64_t{1} << 32 : static_cast<uint64_t>(w);
}

// The field at x, linear between the nodes' values `e`.
SB_HD inline double gather(const Mesh& m, const double* e, double x) {
  double frac;
  const uint32_t j = cell_of(m, x, frac);
  return e[j] * (1.0 - frac) + e[j + 1] * frac;
}

// The constant elimination factors of the Poisson matrix (-1, 2, -1), interior nodes 1 .. N-1:
// g[1] = 1/2, g[j] = 1 / (2 - g[j-1]). Computed once on the host.
struct PoissonFactors {
  const double* g;  // g[0] unused
};

// The potential at every node from the interior nodes' net charge (ions less electrons, in
// weight units: rhs_scale turns one into the right side rho dx^2 / eps0), with phi[0] = 0 and
// phi[N] = voltage; d is scratch of N + 1 values. Then the field at the nodes, the electrodes'
// from Gauss's law over their half cells (wall_scale turns a weight unit into rho dx / (2 eps0)).
SB_HD inline void solve_field(const Mesh& m, const int64_t* net, double rhs_scale,
                              double wall_scale, double voltage, PoissonFactors f, double* d,
                              double* phi, double* e) {
  const uint32_t n = m.cells;
  d[0] = 0;
  for (uint32_t j = 1; j < n; ++j) {
    double rhs = static_cast<double>(net[j]) * rhs_scale;
    if (j == n - 1) rhs = rhs + voltage;
    d[j] = (rhs + d[j - 1]) * f.g[j];
  }
  phi[0] = 0;
  phi[n] = voltage;
  phi[n - 1] = d[n - 1];
  for (uint32_t j = n - 1; j-- > 1;)
    phi[j] = d[j] + f.g[j] * phi[j + 1];
  const double half_inv_dx = 0.5 * m.inv_dx;
  for (uint32_t j = 1; j < n; ++j)
    e[j] = (phi[j - 1] - phi[j + 1]) * half_inv_dx;
  e[0] = (phi[0] - phi[1]) * m.inv_dx - static_cast<double>(net[0]) * wall_scale;
  e[n] = (phi[n - 1] - phi[n]) * m.inv_dx + static_cast<double>(net[n]) * wall_scale;
}

}  // namespace sb::ccp
