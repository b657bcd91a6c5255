// What the FFT Poisson solves multiply by (docs/physics.md, "Self-consistent fields"), shared by
// the host and device solvers so that both solve the same discrete problem.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hostdev.hpp"
#include "fields/mesh.hpp"

namespace sb::fields {

// The vacuum permittivity, F/m (CODATA 2018).
inline constexpr double kEpsilon0 = 8.8541878128e-12;
inline constexpr double kPi = 3.14159265358979323846;

// The mean of 1 / |r| over a cube of side 1 centred on the origin: 3 ln(2 + sqrt 3) - pi / 2
// (split the cube into 6 pyramids with their apex at the centre). A literal, because CUDA's log
// need not round as the host's does.
inline constexpr double kCubeMeanInverseDistance = 2.3800773639795535;

// Minus the eigenvalue of the 1-D second difference (f[i+1] - 2 f[i] + f[i-1]) / h^2 on n
// periodic nodes for wave number k: (4 / h^2) sin^2(pi k / n). The 7-point Laplacian's eigenvalue
// is minus the sum of this over the three axes.
SB_HD inline double second_difference_eigenvalue(int n, double h, int k) {
  const double s = sin(kPi * k / n);
  return 4 * s * s / (h * h);
}

// The free-space Green's function of the Hockney-Eastwood doubled grid of 2n nodes per axis,
// G(r) = 1 / (4 pi eps0 |r|), at the node (i, j, k) of that grid: the offset of each axis is
// min(i, 2n - i) nodes, so G is symmetric and the cyclic convolution over the doubled grid is the
// open one over the cube. G(0), where 1 / |r| diverges, is the mean of G over the cell around
// the node: what a charge spread evenly over that cell makes there on average.
SB_HD inline double free_space_green(int n, double h, int i, int j, int k) {
  const int doubled = 2 * n;
  const double di = i <= n ? i : doubled - i;
  const double dj = j <= n ? j : doubled - j;
  const double dk = k <= n ? k : doubled - k;
  const double r2 = di * di + dj * dj + dk * dk;
  const double inverse_distance = r2 == 0 ? kCubeMeanInverseDistance : 1 / sqrt(r2);
  return inverse_distance / (4 * kPi * kEpsilon0 * h);
}

}  // namespace sb::fields
