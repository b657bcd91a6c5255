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
// phi[N] = voltage; d is scratch of N + 1 values. Each sweep carries its last value in a register
// rather than reading it back from d or phi: the same arithmetic, without a memory round trip in
// the dependent chain (it runs on one GPU thread).
SB_HD inline void solve_potential(const Mesh& m, const int64_t* net, double rhs_scale,
                                  double voltage, PoissonFactors f, double* d, double* phi) {
  const uint32_t n = m.cells;
  double carried = 0;
  d[0] = 0;
  for (uint32_t j = 1; j < n; ++j) {
    double rhs = static_cast<double>(net[j]) * rhs_scale;
    if (j == n - 1) rhs = rhs + voltage;
    carried = (rhs + carried) * f.g[j];
    d[j] = carried;
  }
  phi[0] = 0;
  phi[n] = voltage;
  phi[n - 1] = carried;
  for (uint32_t j = n - 1; j-- > 1;) {
    carried = d[j] + f.g[j] * carried;
    phi[j] = carried;
  }
}

// The field at node j from the potential: central differences inside, and at the electrodes
// Gauss's law over their half cells (wall_scale turns a weight unit into rho dx / (2 eps0)).
SB_HD inline double field_at_node(const Mesh& m, const int64_t* net, double wall_scale,
                                  const double* phi, uint32_t j) {
  const uint32_t n = m.cells;
  if (j == 0) return (phi[0] - phi[1]) * m.inv_dx - static_cast<double>(net[0]) * wall_scale;
  if (j == n) return (phi[n - 1] - phi[n]) * m.inv_dx + static_cast<double>(net[n]) * wall_scale;
  return (phi[j - 1] - phi[j + 1]) * (0.5 * m.inv_dx);
}

// The potential, then the field `e` at every node.
SB_HD inline void solve_field(const Mesh& m, const int64_t* net, double rhs_scale,
                              double wall_scale, double voltage, PoissonFactors f, double* d,
                              double* phi, double* e) {
  solve_potential(m, net, rhs_scale, voltage, f, d, phi);
  for (uint32_t j = 0; j <= m.cells; ++j)
    e[j] = field_at_node(m, net, wall_scale, phi, j);
}

}  // namespace sb::ccp
