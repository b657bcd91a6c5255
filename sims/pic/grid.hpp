// The mock field solve of seed 003 §3.4.1 (docs/design.md §5, pic steps 1-3), as pure functions
// that host and device share. Particles hardly move in a phase, so they occupy a small box of the
// 512^3 grid: counts and accelerations are kept for that box of occupied cells plus a halo of
// one (empty) cell, which gives exactly the values of the full grid wherever a particle reads.
#pragma once

#include <climits>
#include <cmath>
#include <cstdint>

#include "core/hostdev.hpp"
#include "sims/pic/constants.hpp"

namespace sb::pic {

// The cell of a coordinate: floor(x / h).
SB_HD inline int cell_of(double x) {
  return static_cast<int>(floor(x / kCellSize));
}

// A box of cells, bounds included; empty when lo > hi.
struct CellBox {
  int lo[3] = {INT_MAX, INT_MAX, INT_MAX};
  int hi[3] = {INT_MIN, INT_MIN, INT_MIN};

  SB_HD bool empty() const { return lo[0] > hi[0]; }

  SB_HD static CellBox of(int x, int y, int z) {
    CellBox b;
    b.lo[0] = b.hi[0] = x;
    b.lo[1] = b.hi[1] = y;
    b.lo[2] = b.hi[2] = z;
    return b;
  }

  // The box with `cells` more on every side.
  SB_HD CellBox grown(int cells) const {
    CellBox b;
    for (int a = 0; a < 3; ++a) {
      b.lo[a] = lo[a] - cells;
      b.hi[a] = hi[a] + cells;
    }
    return b;
  }

  SB_HD CellBox merged(const CellBox& o) const {
    CellBox b;
    for (int a = 0; a < 3; ++a) {
      b.lo[a] = lo[a] < o.lo[a] ? lo[a] : o.lo[a];
      b.hi[a] = hi[a] > o.hi[a] ? hi[a] : o.hi[a];
    }
    return b;
  }
};

// Index arithmetic of a box with a halo of one cell on every side.
struct LocalGrid {
  int origin[3];  // the halo's lowest cell
  int size[3];    // cells per axis, halo included

  SB_HD explicit LocalGrid(const CellBox& b) {
    for (int a = 0; a < 3; ++a) {
      origin[a] = b.lo[a] - 1;
      size[a] = b.hi[a] - b.lo[a] + 3;
    }
  }

  SB_HD uint64_t cells() const { return uint64_t(size[0]) * size[1] * size[2]; }

  // Whether every cell of box b (not empty) is inside the grid's interior, not its halo.
  SB_HD bool holds(const CellBox& b) const {
    for (int a = 0; a < 3; ++a) {
      if (b.lo[a] <= origin[a] || b.hi[a] >= origin[a] + size[a] - 1) return false;
    }
    return true;
  }

  SB_HD uint64_t index(int x, int y, int z) const {
    return (uint64_t(z - origin[2]) * size[1] + (y - origin[1])) * size[0] + (x - origin[0]);
  }

  // Whether local cell i is inside the box (not the halo); its coordinates go to x, y, z.
  SB_HD bool interior(uint64_t i, int& x, int& y, int& z) const {
    const int lx = static_cast<int>(i % size[0]);
    const int ly = static_cast<int>(i / size[0] % size[1]);
    const int lz = static_cast<int>(i / size[0] / size[1]);
    x = lx + origin[0];
    y = ly + origin[1];
    z = lz + origin[2];
    return lx > 0 && ly > 0 && lz > 0 && lx < size[0] - 1 && ly < size[1] - 1 && lz < size[2] - 1;
  }
};

// One component of a cell's acceleration: k times the difference of its neighbours' counts,
// stored as float32 (docs/design.md §5, pic step 2).
SB_HD inline float acceleration(double k, uint32_t ahead, uint32_t behind) {
  return static_cast<float>(k * (static_cast<double>(ahead) - static_cast<double>(behind)));
}

// The acceleration of interior cell (x, y, z) from the counts of the local grid.
SB_HD inline void cell_acceleration(const LocalGrid& g, const uint32_t* counts, double k, int x,
                                    int y, int z, float* a) {
  a[0] = acceleration(k, counts[g.index(x + 1, y, z)], counts[g.index(x - 1, y, z)]);
  a[1] = acceleration(k, counts[g.index(x, y + 1, z)], counts[g.index(x, y - 1, z)]);
  a[2] = acceleration(k, counts[g.index(x, y, z + 1)], counts[g.index(x, y, z - 1)]);
}

// K = e^2 / (4 pi eps0 h^2 m_e): the acceleration one more electron next door causes, m/s^2.
inline double acceleration_constant() {
  return kElementaryCharge * kElementaryCharge /
         (4.0 * 3.14159265358979323846 * kVacuumPermittivity * kCellSize * kCellSize *
          kElectronMass);
}

}  // namespace sb::pic
