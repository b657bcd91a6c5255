// The Green's functions of the FFT Poisson solves (docs/physics.md, "Self-consistent fields"),
// shared by the host (FFTW) and device (cuFFT) solvers so that both transform the same numbers:
// they differ only in their FFTs.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hostdev.hpp"
#include "fields/mesh.hpp"

namespace sb::fields {

inline constexpr double kVacuumPermittivity = 8.8541878176e-12;  // F/m, as sims/pic uses
inline constexpr double kPi = 3.14159265358979323846;

// Periodic: the 7-point Laplacian's eigenvalue on one axis for wave number k of n,
// -(4 / h^2) sin^2(pi k / n), negated. The solve divides by eps0 times the sum of the three axes'
// (summed x + y + z, in that order, on both sides).
inline double periodic_axis_eigenvalue(int k, int n, double h) {
  const double s = std::sin(kPi * k / n);
  return 4 * s * s / (h * h);
}

// The factor that turns rho's transform into phi's at wave numbers whose axis eigenvalues are
// ex, ey, ez: 1 / (eps0 (ex + ey + ez)), and 0 for the mean (k = 0), which the periodic solve
// removes.
SB_HD inline double periodic_multiplier(double ex, double ey, double ez) {
  const double sum = ex + ey + ez;
  return sum == 0 ? 0.0 : 1 / (kVacuumPermittivity * sum);
}

// Open: the free-space Green's function G(r) = 1 / (4 pi eps0 r) sampled on the doubled grid of
// 2n nodes per axis (Hockney and Eastwood): node i stands for the distance min(i, 2n - i) h, so
// that the cyclic convolution on the doubled grid is the free-space one on the first n^3 nodes.
// At r = 0 it takes the mean of 1/r over a cell centred on the node, 2.38007736 / h (the
// potential of a uniformly charged cube at its centre), which keeps the self-potential finite.
inline constexpr double kCubeMeanInverseDistance = 2.380077364;  // mean of 1/|r| over a unit cube

SB_HD inline double open_green(const Mesh& m, int i, int j, int k) {
  const int n2 = 2 * m.n;
  const double dx = (i <= m.n ? i : n2 - i) * m.h;
  const double dy = (j <= m.n ? j : n2 - j) * m.h;
  const double dz = (k <= m.n ? k : n2 - k) * m.h;
  const double r = sqrt(dx * dx + dy * dy + dz * dz);
  const double inverse = r == 0 ? kCubeMeanInverseDistance / m.h : 1 / r;
  return inverse / (4 * kPi * kVacuumPermittivity);
}

}  // namespace sb::fields
