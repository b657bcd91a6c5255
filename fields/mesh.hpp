// The mesh of the field module (docs/physics.md, "Self-consistent fields"): a cube of n^3 nodes
// of spacing h, node (i, j, k) at origin + (i, j, k) h, with x fastest in memory. Charge is
// deposited on it with cloud-in-cell (trilinear) weights in 64-bit fixed point, so that a
// deposit is the same integer whatever the order of its additions, in every engine; the
// field is gathered back with the same weights. Host and device share these functions.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hostdev.hpp"

namespace sb::fields {

enum class Boundary {
  kPeriodic,  // the cube repeats: node n is node 0
  kOpen,      // free space: nothing outside the cube (charge beyond its last node is dropped)
};

// One particle's charge is kChargeUnit fixed-point units; a node holds a signed sum. 2^32 units
// leave 2^31 whole particles per node before a 64-bit sum overflows, and resolve a weight to
// 2.3e-10.
inline constexpr double kChargeUnit = 0x1p32;

struct Mesh {
  int n = 0;              // nodes per axis: a power of two
  double h = 0;           // node spacing, m
  double origin[3] = {};  // node (0, 0, 0), m

  SB_HD uint64_t nodes() const { return uint64_t(n) * n * n; }
  SB_HD uint64_t index(int i, int j, int k) const { return (uint64_t(k) * n + j) * n + i; }
};

// The cloud-in-cell stencil of a position: the lowest of the 8 nodes around it, and the weight
// of the upper node per axis (the lower one's is 1 - w). On host and device the same + - * /
// and floor, so the same stencil bit for bit (the project compiles without contraction).
struct Stencil {
  int lo[3];
  double w[3];
};

SB_HD inline Stencil stencil_of(const Mesh& m, double x, double y, double z) {
  const double p[3] = {x, y, z};
  Stencil s;
  for (int a = 0; a < 3; ++a) {
    const double u = (p[a] - m.origin[a]) / m.h;
    const double f = floor(u);
    s.lo[a] = static_cast<int>(f);
    s.w[a] = u - f;
  }
  return s;
}

// The weight of corner c (bit a of c set: the upper node on axis a) of a stencil, in
// fixed-point units, rounded to nearest. The 8 corners may sum to 2^32 +- 4: charge is
// conserved to 1e-9 of a particle.
SB_HD inline int64_t corner_units(const Stencil& s, int c) {
  double w = 1;
  for (int a = 0; a < 3; ++a)
    w *= (c >> a & 1) ? s.w[a] : 1 - s.w[a];
  return static_cast<int64_t>(w * kChargeUnit + 0.5);
}

// The node of corner c of a stencil, wrapped (periodic) or -1 when it lies outside the cube
// (open): its share is dropped on deposit and reads as zero field on gather.
SB_HD inline int64_t corner_node(const Mesh& m, Boundary b, const Stencil& s, int c) {
  int ijk[3];
  for (int a = 0; a < 3; ++a) {
    int i = s.lo[a] + (c >> a & 1);
    if (b == Boundary::kPeriodic) {
      i %= m.n;
      if (i < 0) i += m.n;
    } else if (i < 0 || i >= m.n) {
      return -1;
    }
    ijk[a] = i;
  }
  return static_cast<int64_t>(m.index(ijk[0], ijk[1], ijk[2]));
}

}  // namespace sb::fields
