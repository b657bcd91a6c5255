// ccp's field (docs/physics.md, "ccp: the Turner helium discharge"), what host and device share:
// linear (cloud-in-cell) weights on the nodes of a uniform 1D mesh, counted in 32-bit fixed point
// so that a deposit is an integer sum, the same in any order; the potential between a grounded
// electrode (x = 0) and a driven one (x = L) by the tridiagonal system's exact solution from
// double sums of the charge; the field at the nodes, and a particle's read of it.
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

// The potential by the exact solution of the three-point Laplacian's tridiagonal system (-1, 2, -1)
// over the interior nodes 1 .. N-1 with phi[0] = 0 and phi[N] = voltage: with q the interior
// nodes' net charge (ions less electrons, in weight units; rhs_scale turns one into rho dx^2 /
// eps0), Q_k = q_1 + ... + q_k (Q_0 = 0) and P_j = Q_0 + ... + Q_{j-1},
//   phi_j = j D - rhs_scale P_j,  D = (voltage + rhs_scale P_N) / N,
// as the differences phi_j - phi_{j-1} fall by rhs_scale q_j at each interior node. P is a double
// sum of integers, exact in 128 bits (the same in any order, so a block may sum it in parallel
// while the host sums it in a loop); each phi_j then rounds on its own, the same on host and
// device, and none depends on the one before it.
__extension__ typedef __int128 ChargeSum;

// q at node j where it enters the system: the interior nodes' net charge, none at the electrodes.
SB_HD inline int64_t interior_charge(const Mesh& m, const int64_t* net, uint32_t j) {
  return j == 0 || j >= m.cells ? 0 : net[j];
}

// P_j for j = 0 .. N into p, by one thread in node order.
SB_HD inline void double_charge_sums(const Mesh& m, const int64_t* net, ChargeSum* p) {
  int64_t q_sum = 0;  // Q_{j-1}
  ChargeSum p_sum = 0;
  for (uint32_t j = 0; j <= m.cells; ++j) {
    p[j] = p_sum;
    q_sum += interior_charge(m, net, j);
    p_sum += q_sum;
  }
}

// A 128-bit sum as the nearest double to its high half's value plus the nearest to its low half's:
// two correctly rounded conversions, the same on host and device.
SB_HD inline double to_double(ChargeSum v) {
  const auto high = static_cast<int64_t>(v >> 64);
  const auto low = static_cast<uint64_t>(v);
  return static_cast<double>(high) * 18446744073709551616.0 + static_cast<double>(low);
}

// phi_j from the double sums p (P_0 .. P_N).
SB_HD inline double potential_at(const Mesh& m, const ChargeSum* p, double rhs_scale,
                                 double voltage, uint32_t j) {
  if (j == 0) return 0;
  if (j == m.cells) return voltage;
  const double slope = (voltage + rhs_scale * to_double(p[m.cells])) / m.cells;
  return static_cast<double>(j) * slope - rhs_scale * to_double(p[j]);
}

// The potential at every node (p is scratch of N + 1 sums).
SB_HD inline void solve_potential(const Mesh& m, const int64_t* net, double rhs_scale,
                                  double voltage, ChargeSum* p, double* phi) {
  double_charge_sums(m, net, p);
  for (uint32_t j = 0; j <= m.cells; ++j)
    phi[j] = potential_at(m, p, rhs_scale, voltage, j);
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

// The potential, then the field `e` at every node (p is scratch of N + 1 sums).
SB_HD inline void solve_field(const Mesh& m, const int64_t* net, double rhs_scale,
                              double wall_scale, double voltage, ChargeSum* p, double* phi,
                              double* e) {
  solve_potential(m, net, rhs_scale, voltage, p, phi);
  for (uint32_t j = 0; j <= m.cells; ++j)
    e[j] = field_at_node(m, net, wall_scale, phi, j);
}

}  // namespace sb::ccp
