// The field module on the host (fields/, docs/physics.md "Self-consistent fields"): fixed-point
// deposition, the two FFT Poisson solves against exact answers, the field and the gather.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "fields/deposit.hpp"
#include "fields/field.hpp"
#include "fields/green.hpp"
#include "fields/poisson.hpp"

namespace sb::fields {
namespace {

struct Point {
  double x, y, z;
};

Mesh cube(int n, double h, double origin = 0) {
  return {n, h, {origin, origin, origin}};
}

std::vector<Point> random_points(uint64_t count, double low, double high, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(low, high);
  std::vector<Point> points(count);
  for (Point& p : points)
    p = {u(rng), u(rng), u(rng)};
  return points;
}

std::vector<int64_t> deposited(const Mesh& mesh, Boundary b, const std::vector<Point>& points,
                               int sign = 1) {
  std::vector<int64_t> charge(mesh.nodes(), 0);
  deposit(
      mesh, b, points.size(), [&](uint64_t i) -> const Point& { return points[i]; }, sign,
      charge.data());
  return charge;
}

// The potential and field of a charge distribution on the mesh.
struct Fields {
  std::vector<double> phi, ex, ey, ez;

  Fields(const Mesh& mesh, Boundary b, const std::vector<double>& rho)
      : phi(mesh.nodes()), ex(mesh.nodes()), ey(mesh.nodes()), ez(mesh.nodes()) {
    make_host_solver(mesh, b)->solve(rho.data(), phi.data());
    electric_field(mesh, b, phi.data(), ex.data(), ey.data(), ez.data());
  }

  std::array<double, 3> at(const Mesh& mesh, Boundary b, double x, double y, double z) const {
    std::array<double, 3> e;
    gather(mesh, b, ex.data(), ey.data(), ez.data(), x, y, z, e.data());
    return e;
  }
};

double norm(const std::array<double, 3>& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

TEST(FieldsDeposit, ShuffledOrderGivesTheSameIntegers) {
  const Mesh mesh = cube(16, 0.5);
  for (const Boundary b : {Boundary::kPeriodic, Boundary::kOpen}) {
    // Periodic: positions beyond the cube on both sides, which wrap.
    std::vector<Point> points = random_points(20000, -2.0, 10.0, 7);
    const std::vector<int64_t> in_order = deposited(mesh, b, points);
    std::shuffle(points.begin(), points.end(), std::mt19937_64(11));
    EXPECT_EQ(deposited(mesh, b, points), in_order);
    // Doubles summed in another order would differ in their last bits: the integers must not.
    std::reverse(points.begin(), points.end());
    EXPECT_EQ(deposited(mesh, b, points), in_order);
  }
}

TEST(FieldsDeposit, ChargeIsConservedToFourUnitsPerParticle) {
  // Interior particles: all 8 corners on the mesh under either boundary.
  const Mesh mesh = cube(16, 0.25);
  const std::vector<Point> points = random_points(5000, 0.0, 15 * 0.25, 3);
  for (const Boundary b : {Boundary::kPeriodic, Boundary::kOpen}) {
    for (const int sign : {1, -1}) {
      const std::vector<int64_t> charge = deposited(mesh, b, points, sign);
      const int64_t total = std::accumulate(charge.begin(), charge.end(), int64_t{0});
      const int64_t expected = sign * int64_t(points.size()) * int64_t(kChargeUnit);
      EXPECT_LE(std::llabs(total - expected), 4 * int64_t(points.size()));
    }
  }
  // And each particle alone: the rounding of its 8 corners is at most 8 halves of a unit.
  for (const Point& p : points) {
    const Stencil s = stencil_of(mesh, p.x, p.y, p.z);
    int64_t sum = 0;
    for (int c = 0; c < 8; ++c)
      sum += corner_units(s, c);
    EXPECT_LE(std::llabs(sum - int64_t(kChargeUnit)), 4);
  }
}

TEST(FieldsDeposit, OpenDropsTheCornersOutsideAndDensityScalesByTheCell) {
  const Mesh mesh = cube(4, 0.5);
  // On node (3, 0, 0) exactly, then half a cell beyond the last node: half of it is dropped.
  const std::vector<Point> points = {{1.5, 0, 0}, {1.75, 0, 0}};
  const std::vector<int64_t> charge = deposited(mesh, Boundary::kOpen, points);
  EXPECT_EQ(charge[mesh.index(3, 0, 0)], int64_t(kChargeUnit) + int64_t(kChargeUnit) / 2);
  EXPECT_EQ(std::accumulate(charge.begin(), charge.end(), int64_t{0}),
            int64_t(kChargeUnit) * 3 / 2);
  std::vector<double> rho(mesh.nodes());
  charge_density(mesh, charge.data(), -2e-12, rho.data());
  EXPECT_DOUBLE_EQ(rho[mesh.index(3, 0, 0)], 1.5 * -2e-12 / (0.5 * 0.5 * 0.5));
}

// rho = c + sin(2 pi (k i + l j + m kk) / n) on n^3 periodic nodes: the 7-point Laplacian's
// eigenfunction, so phi = sin(...) / (eps0 |eigenvalue|) exactly; the constant c is the mean
// that the neutralising background removes. 1e-12 relative: the FFTs round to about 1e-15 of
// the largest value, and any error in the eigenvalue or the normalisation is far above 1e-12.
TEST(FieldsPoisson, PeriodicSinusoidIsTheExactDiscreteSolution) {
  const int n = 32;
  const double h = 2e-3;
  const Mesh mesh = cube(n, h, -0.1);
  const int wave[3] = {1, 2, 3};
  double eigenvalue = 0;
  for (const int k : wave) {
    const double s = std::sin(M_PI * k / n);
    eigenvalue += 4 * s * s / (h * h);
  }
  std::vector<double> rho(mesh.nodes()), exact(mesh.nodes()), phi(mesh.nodes());
  for (int kk = 0; kk < n; ++kk)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double s = std::sin(2 * M_PI * (wave[0] * i + wave[1] * j + wave[2] * kk) / n);
        rho[mesh.index(i, j, kk)] = 0.3 + s;
        exact[mesh.index(i, j, kk)] = s / (kEpsilon0 * eigenvalue);
      }
  make_host_solver(mesh, Boundary::kPeriodic)->solve(rho.data(), phi.data());
  double error = 0, largest = 0;
  for (uint64_t q = 0; q < mesh.nodes(); ++q) {
    error = std::max(error, std::abs(phi[q] - exact[q]));
    largest = std::max(largest, std::abs(exact[q]));
  }
  std::printf("periodic sinusoid: relative error %.3e\n", error / largest);
  EXPECT_LT(error / largest, 1e-12);
}

// The largest error, relative to the centre's potential, of the open solve of a Gaussian cloud
// (sigma = L / 12, centred in a box of side L = 1 m on n nodes) against
// Q / (4 pi eps0 r) erf(r / (sqrt 2 sigma)), over the nodes within 3 sigma of its centre.
double gaussian_cloud_error(int n) {
  const double side = 1, sigma = side / 12, q = 1e-9;
  const double h = side / n;
  const Mesh mesh = cube(n, h, -(n / 2) * h);  // the centre on node n/2
  const double peak = q / (std::pow(2 * M_PI, 1.5) * sigma * sigma * sigma);
  std::vector<double> rho(mesh.nodes()), phi(mesh.nodes());
  const auto r_of = [&](int i, int j, int k) {
    return h * std::sqrt(double((i - n / 2) * (i - n / 2) + (j - n / 2) * (j - n / 2) +
                                (k - n / 2) * (k - n / 2)));
  };
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double r = r_of(i, j, k);
        rho[mesh.index(i, j, k)] = peak * std::exp(-r * r / (2 * sigma * sigma));
      }
  make_host_solver(mesh, Boundary::kOpen)->solve(rho.data(), phi.data());
  const double centre = q / (4 * M_PI * kEpsilon0) * std::sqrt(2 / M_PI) / sigma;
  double error = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double r = r_of(i, j, k);
        if (r > 3 * sigma) continue;
        const double exact =
            r == 0 ? centre
                   : q / (4 * M_PI * kEpsilon0 * r) * std::erf(r / (std::sqrt(2.0) * sigma));
        error = std::max(error, std::abs(phi[mesh.index(i, j, k)] - exact) / centre);
      }
  return error;
}

// Second order: the convolution with G sampled at nodes is a quadrature of the potential's
// integral, exact to O(h^2) for a smooth density (the cell-averaged G(0) takes the singular
// cell). The observed order, log2 of the ratio of errors when h halves, within [1.7, 2.3]:
// second order with room for the higher-order terms at the coarsest grid. And the coarsest
// error below 1 %: G(0) = 0 instead of the cell mean puts it at 3.2 %.
TEST(FieldsPoisson, OpenGaussianCloudConvergesAtSecondOrder) {
  const double e32 = gaussian_cloud_error(32), e64 = gaussian_cloud_error(64),
               e128 = gaussian_cloud_error(128);
  const double order_coarse = std::log2(e32 / e64), order_fine = std::log2(e64 / e128);
  std::printf("open Gaussian: relative errors %.3e %.3e %.3e, orders %.3f %.3f\n", e32, e64, e128,
              order_coarse, order_fine);
  EXPECT_LT(e32, 1e-2);
  EXPECT_GE(order_coarse, 1.7);
  EXPECT_LE(order_coarse, 2.3);
  EXPECT_GE(order_fine, 1.7);
  EXPECT_LE(order_fine, 2.3);
}

TEST(FieldsPoisson, GreensFunctionAtZeroIsTheCellMean) {
  // The literal against its closed form, and the closed form against the cube integral done
  // numerically: the mean of 1/r over [-1/2, 1/2]^3 is 3 times the mean over the pyramid with
  // its apex at the centre and the face x = 1/2, which reduces to 3 * integral over [0, 1]^2 of
  // 1 / sqrt(1 + u^2 + v^2) (midpoint rule, 400^2 points: error about 1e-7).
  EXPECT_NEAR(kCubeMeanInverseDistance, 3 * std::log(2 + std::sqrt(3.0)) - M_PI / 2, 1e-15);
  const int points = 400;
  double integral = 0;
  for (int a = 0; a < points; ++a)
    for (int b = 0; b < points; ++b) {
      const double u = (a + 0.5) / points, v = (b + 0.5) / points;
      integral += 1 / std::sqrt(1 + u * u + v * v);
    }
  EXPECT_NEAR(kCubeMeanInverseDistance, 3 * integral / (points * points), 1e-6);
  EXPECT_DOUBLE_EQ(free_space_green(8, 0.25, 0, 0, 0),
                   kCubeMeanInverseDistance / (4 * M_PI * kEpsilon0 * 0.25));
  // Offsets wrap symmetrically on the doubled grid: node 16 - 3 is 3 nodes away.
  EXPECT_EQ(free_space_green(8, 0.25, 13, 0, 2), free_space_green(8, 0.25, 3, 0, 2));
  EXPECT_DOUBLE_EQ(free_space_green(8, 0.25, 3, 0, 4), 1 / (4 * M_PI * kEpsilon0 * 0.25 * 5));
}

// Centred and one-sided second-order differences are exact for a quadratic potential: every
// node, the open cube's faces included, to rounding (1e-9 of the largest field: phi is
// evaluated in double, and differences of it cancel about 4 digits).
TEST(FieldsField, MinusTheGradientOfAQuadraticIsExactOnEveryNode) {
  const int n = 8;
  const double h = 0.1;
  const Mesh mesh = cube(n, h, -0.3);
  std::vector<double> phi(mesh.nodes()), ex(mesh.nodes()), ey(mesh.nodes()), ez(mesh.nodes());
  const auto coord = [&](int i) { return mesh.origin[0] + i * h; };
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        phi[mesh.index(i, j, k)] = 2 * coord(i) * coord(i) + 3 * coord(j) * coord(k) - 5 * coord(k);
  electric_field(mesh, Boundary::kOpen, phi.data(), ex.data(), ey.data(), ez.data());
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const uint64_t q = mesh.index(i, j, k);
        EXPECT_NEAR(ex[q], -4 * coord(i), 1e-9);
        EXPECT_NEAR(ey[q], -3 * coord(k), 1e-9);
        EXPECT_NEAR(ez[q], -3 * coord(j) + 5, 1e-9);
      }
}

// Periodic: the centred difference of sin(2 pi i / n) is sin(2 pi / n) / h cos(2 pi i / n), with
// the wrap at both ends.
TEST(FieldsField, PeriodicCentredDifferenceWraps) {
  const int n = 8;
  const double h = 0.5;
  const Mesh mesh = cube(n, h);
  std::vector<double> phi(mesh.nodes()), ex(mesh.nodes()), ey(mesh.nodes()), ez(mesh.nodes());
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        phi[mesh.index(i, j, k)] = std::sin(2 * M_PI * j / n);
  electric_field(mesh, Boundary::kPeriodic, phi.data(), ex.data(), ey.data(), ez.data());
  for (int j = 0; j < n; ++j) {
    const uint64_t q = mesh.index(5, j, 2);
    EXPECT_NEAR(ey[q], -std::sin(2 * M_PI / n) / h * std::cos(2 * M_PI * j / n), 1e-14);
    EXPECT_EQ(ex[q], 0);
    EXPECT_EQ(ez[q], 0);
  }
}

// Cloud-in-cell interpolates a linear field exactly, up to the weights' fixed-point rounding:
// each is within 2^-33 of the exact one, so with 8 corners of fields below 15 the error is
// below 8 * 2^-33 * 15 = 1.4e-8 (a wrong corner or weight would be off by 0.1 or more).
// Open: corners outside read zero.
TEST(FieldsGather, LinearFieldIsInterpolatedExactly) {
  const int n = 8;
  const Mesh mesh = cube(n, 0.5, -1);
  std::vector<double> ex(mesh.nodes()), ey(mesh.nodes()), ez(mesh.nodes());
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const uint64_t q = mesh.index(i, j, k);
        ex[q] = 1 + i;
        ey[q] = 2 * j - k;
        ez[q] = 7;
      }
  for (const Point& p : random_points(100, -1, -1 + 7 * 0.5, 5)) {
    double e[3];
    gather(mesh, Boundary::kOpen, ex.data(), ey.data(), ez.data(), p.x, p.y, p.z, e);
    const double i = (p.x + 1) / 0.5, j = (p.y + 1) / 0.5, k = (p.z + 1) / 0.5;
    EXPECT_NEAR(e[0], 1 + i, 1.4e-8);
    EXPECT_NEAR(e[1], 2 * j - k, 1.4e-8);
    EXPECT_NEAR(e[2], 7, 1.4e-8);
  }
  double e[3];
  // Half a cell beyond the last node on x: only the 4 corners inside, each weight 1/2 * 1/4.
  gather(mesh, Boundary::kOpen, ex.data(), ey.data(), ez.data(), -1 + 7.5 * 0.5, 0.25, 0.25, e);
  EXPECT_DOUBLE_EQ(e[2], 7 * 0.5);
}

// A lone particle at an off-node position: the field it feels from its own charge, against the
// field it makes at a second charge one cell away. Deposit and gather weigh the same corners
// alike and the centred difference of a symmetric potential is antisymmetric, so the self-force
// cancels. The bound, 1e-10, lies below the self-force of about 3e-10 that unrounded weights
// would leave (fields/field.hpp, gather).
double self_force_ratio(Boundary b) {
  const int n = 16;
  const double h = 1e-3;
  const Mesh mesh = cube(n, h);
  const Point p{7.31 * h, 8.618 * h, 6.1725 * h};
  const std::vector<int64_t> charge = deposited(mesh, b, {p});
  std::vector<double> rho(mesh.nodes());
  charge_density(mesh, charge.data(), 1.602e-19, rho.data());
  const Fields f(mesh, b, rho);
  const double self = norm(f.at(mesh, b, p.x, p.y, p.z));
  const double other = norm(f.at(mesh, b, p.x + h, p.y, p.z));
  std::printf("self-force: |E self| %.3e V/m, |E one cell away| %.3e V/m, ratio %.3e\n", self,
              other, self / other);
  return self / other;
}

TEST(FieldsGather, NoSelfForcePeriodic) {
  EXPECT_LT(self_force_ratio(Boundary::kPeriodic), 1e-10);
}

TEST(FieldsGather, NoSelfForceOpen) {
  EXPECT_LT(self_force_ratio(Boundary::kOpen), 1e-10);
}

}  // namespace
}  // namespace sb::fields
