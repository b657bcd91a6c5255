// The field module's device half against its host half (docs/physics.md, "Self-consistent
// fields"): deposition gives the host's int64 grid exactly (both variants, both boundaries);
// the cuFFT potential is FFTW's within 1e-12 relative; charge density, field and gather are the
// host's bit for bit.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/cuda_check.hpp"
#include "fields/deposit.hpp"
#include "fields/device/deposit_device.hpp"
#include "fields/device/field_device.hpp"
#include "fields/device/poisson_device.hpp"
#include "fields/field.hpp"
#include "fields/poisson.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/summary.hpp"

namespace sb::fields {
namespace {

struct Position {
  double x, y, z;
};

const char* boundary_name(Boundary b) {
  return b == Boundary::kPeriodic ? "periodic" : "open";
}

// A 32^3 mesh of 1 cm cells whose first node is off the origin.
Mesh test_mesh(int n = 32) {
  Mesh m;
  m.n = n;
  m.h = 0.01;
  m.origin[0] = -0.1;
  m.origin[1] = 0.05;
  m.origin[2] = -0.3;
  return m;
}

// Particles that reach every case of the stencil: uniform over the cube and a cell beyond each
// face (wrapped or dropped), a dense clump in a few cells (long runs of one key in the sorted
// variant), and particles exactly on nodes, on the cube's last node and its upper face, and on
// the faces of the cell beyond it.
std::vector<Position> test_particles(const Mesh& m, uint64_t count) {
  std::mt19937_64 rng(2026);
  const double lo = -m.h, hi = (m.n + 1) * m.h;
  std::uniform_real_distribution<double> anywhere(lo, hi);
  std::uniform_real_distribution<double> clump(10 * m.h, 12 * m.h);
  std::uniform_int_distribution<int> node(-1, m.n + 1);
  std::vector<Position> out(count);
  for (uint64_t i = 0; i < count; ++i) {
    double u[3];
    for (double& v : u) {
      switch (i % 4) {
        case 0:
        case 1:
          v = anywhere(rng);
          break;
        case 2:
          v = clump(rng);
          break;
        default:  // on a node or a face of the grid
          v = node(rng) * m.h;
          break;
      }
    }
    out[i] = {m.origin[0] + u[0], m.origin[1] + u[1], m.origin[2] + u[2]};
  }
  return out;
}

// Electrons (sign -1, every particle) and ions (sign +1, every third), as a sim deposits both
// species into one grid.
std::vector<int64_t> host_grid(const Mesh& m, Boundary b, const std::vector<Position>& p) {
  std::vector<int64_t> grid(m.nodes(), 0);
  deposit(
      m, b, p.size(), [&](uint64_t i) -> const Position& { return p[i]; }, -1, grid.data());
  deposit(
      m, b, p.size() / 3, [&](uint64_t i) -> const Position& { return p[3 * i]; }, +1, grid.data());
  return grid;
}

std::vector<int64_t> device_grid(const Mesh& m, Boundary b, DepositVariant v,
                                 const std::vector<Position>& p) {
  DeviceBuffer<Position> particles(p.size(), "the test particles");
  particles.copy_from_host(p);
  DeviceBuffer<int64_t> grid(m.nodes(), "the test grid");
  SB_CUDA_CHECK(cudaMemset(grid.data(), 0, m.nodes() * sizeof(int64_t)));
  DeviceDeposit depositor(m, b);
  const auto* base = reinterpret_cast<const double*>(particles.data());
  depositor.deposit(v, {base, sizeof(Position)}, p.size(), -1, grid.data(), nullptr);
  depositor.deposit(v, {base, 3 * sizeof(Position)}, p.size() / 3, +1, grid.data(), nullptr);
  SB_CUDA_CHECK(cudaDeviceSynchronize());
  return grid.to_host();
}

class DeviceDeposition : public ::testing::TestWithParam<std::tuple<Boundary, DepositVariant>> {};

TEST_P(DeviceDeposition, GivesTheHostGridExactly) {
  SB_REQUIRE_CUDA_DEVICE();
  const auto [boundary, variant] = GetParam();
  const Mesh m = test_mesh();
  const std::vector<Position> p = test_particles(m, 300'000);
  const std::vector<int64_t> host = host_grid(m, boundary, p);
  const std::vector<int64_t> device = device_grid(m, boundary, variant, p);
  ASSERT_EQ(device.size(), host.size());
  uint64_t differ = 0, nonzero = 0;
  for (size_t i = 0; i < host.size(); ++i) {
    differ += device[i] != host[i];
    nonzero += host[i] != 0;
  }
  EXPECT_EQ(differ, 0u);
  EXPECT_GT(nonzero, host.size() / 2);  // the particles reach most of the grid
  testing_support::summary().push_back(
      {"field deposition: device vs host",
       fmt::format("{}, {}, {} particles on {}^3", boundary_name(boundary),
                   variant == DepositVariant::kAtomic ? "atomic" : "sorted", p.size(), m.n),
       differ == 0 ? "identical int64 grids" : fmt::format("{} nodes differ", differ)});
}

INSTANTIATE_TEST_SUITE_P(BothBoundariesBothVariants, DeviceDeposition,
                         ::testing::Combine(::testing::Values(Boundary::kPeriodic, Boundary::kOpen),
                                            ::testing::Values(DepositVariant::kAtomic,
                                                              DepositVariant::kSorted)),
                         [](const auto& info) {
                           return std::string(boundary_name(std::get<0>(info.param))) +
                                  (std::get<1>(info.param) == DepositVariant::kAtomic ? "_atomic"
                                                                                      : "_sorted");
                         });

// A charge density with structure at every scale: random nodes of either sign.
std::vector<double> random_density(const Mesh& m) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> rho(-1e-6, 1e-6);
  std::vector<double> out(m.nodes());
  for (double& v : out)
    v = rho(rng);
  return out;
}

class DeviceSolve : public ::testing::TestWithParam<std::tuple<Boundary, int>> {};

TEST_P(DeviceSolve, MatchesTheHostSolverTo1e12) {
  SB_REQUIRE_CUDA_DEVICE();
  const auto [boundary, n] = GetParam();
  const Mesh m = test_mesh(n);
  const std::vector<double> rho = random_density(m);
  std::vector<double> host(m.nodes());
  make_host_solver(m, boundary)->solve(rho.data(), host.data());

  DeviceBuffer<double> rho_d(m.nodes(), "rho"), phi_d(m.nodes(), "phi");
  rho_d.copy_from_host(rho);
  const auto solver = make_device_solver(m, boundary);  // alive until its solve has run
  solver->solve(rho_d.data(), phi_d.data());
  SB_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<double> device = phi_d.to_host();

  double max_phi = 0, max_diff = 0;
  for (size_t i = 0; i < host.size(); ++i) {
    max_phi = std::max(max_phi, std::abs(host[i]));
    max_diff = std::max(max_diff, std::abs(device[i] - host[i]));
  }
  ASSERT_GT(max_phi, 0);
  const double relative = max_diff / max_phi;
  EXPECT_LT(relative, 1e-12);
  testing_support::summary().push_back({"Poisson solve: cuFFT vs FFTW",
                                        fmt::format("{}, {}^3", boundary_name(boundary), n),
                                        fmt::format("max |d| / max |phi| = {:.2e}", relative)});
}

INSTANTIATE_TEST_SUITE_P(BothBoundariesTwoSizes, DeviceSolve,
                         ::testing::Combine(::testing::Values(Boundary::kPeriodic, Boundary::kOpen),
                                            ::testing::Values(32, 64)),
                         [](const auto& info) {
                           return fmt::format("{}_{}", boundary_name(std::get<0>(info.param)),
                                              std::get<1>(info.param));
                         });

// The values of two arrays that differ in any bit.
uint64_t bits_differ(const std::vector<double>& a, const std::vector<double>& b) {
  uint64_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i)
    differ += std::memcmp(&a[i], &b[i], sizeof(double)) != 0;
  return differ;
}

class DeviceField : public ::testing::TestWithParam<Boundary> {};

// Charge density, field and gather of one deposit on both sides, from the same grid and the
// same potential: every value the same bits.
TEST_P(DeviceField, DensityFieldAndGatherAreTheHostsBitForBit) {
  SB_REQUIRE_CUDA_DEVICE();
  const Boundary boundary = GetParam();
  const Mesh m = test_mesh();
  const uint64_t nodes = m.nodes();
  const std::vector<Position> p = test_particles(m, 300'000);
  const std::vector<int64_t> charge = host_grid(m, boundary, p);
  constexpr double kElectron = -1.602176634e-19;

  std::vector<double> rho(nodes), phi(nodes), ex(nodes), ey(nodes), ez(nodes);
  charge_density(m, charge.data(), kElectron, rho.data());
  make_host_solver(m, boundary)->solve(rho.data(), phi.data());
  electric_field(m, boundary, phi.data(), ex.data(), ey.data(), ez.data());
  std::vector<double> e(3 * p.size());
  for (size_t i = 0; i < p.size(); ++i)
    gather(m, boundary, ex.data(), ey.data(), ez.data(), p[i].x, p[i].y, p[i].z, &e[3 * i]);

  DeviceBuffer<int64_t> charge_d(nodes, "charge");
  DeviceBuffer<double> rho_d(nodes, "rho"), phi_d(nodes, "phi");
  DeviceBuffer<double> ex_d(nodes, "ex"), ey_d(nodes, "ey"), ez_d(nodes, "ez");
  DeviceBuffer<Position> p_d(p.size(), "particles");
  DeviceBuffer<double> e_d(3 * p.size(), "gathered");
  charge_d.copy_from_host(charge);
  phi_d.copy_from_host(phi);  // the host's potential: the solves are compared above
  p_d.copy_from_host(p);
  device_charge_density(m, charge_d.data(), kElectron, rho_d.data(), nullptr);
  device_electric_field(m, boundary, phi_d.data(), ex_d.data(), ey_d.data(), ez_d.data(), nullptr);
  device_gather(m, boundary, ex_d.data(), ey_d.data(), ez_d.data(),
                {reinterpret_cast<const double*>(p_d.data()), sizeof(Position)}, p.size(),
                e_d.data(), nullptr);
  SB_CUDA_CHECK(cudaDeviceSynchronize());

  const uint64_t rho_differ = bits_differ(rho_d.to_host(), rho);
  const uint64_t field_differ = bits_differ(ex_d.to_host(), ex) + bits_differ(ey_d.to_host(), ey) +
                                bits_differ(ez_d.to_host(), ez);
  const std::vector<double> gathered = e_d.to_host();
  const uint64_t gather_differ = bits_differ(gathered, e);
  EXPECT_EQ(rho_differ, 0u);
  EXPECT_EQ(field_differ, 0u);
  EXPECT_EQ(gather_differ, 0u);
  // Not vacuous: the particles feel a field.
  EXPECT_GT(*std::max_element(gathered.begin(), gathered.end()), 0);
  testing_support::summary().push_back(
      {"field: device vs host",
       fmt::format("{}, density, field on {}^3, gather at {} particles", boundary_name(boundary),
                   m.n, p.size()),
       rho_differ + field_differ + gather_differ == 0
           ? "identical bits"
           : fmt::format("{} density, {} field, {} gathered values differ", rho_differ,
                         field_differ, gather_differ)});
}

INSTANTIATE_TEST_SUITE_P(BothBoundaries, DeviceField,
                         ::testing::Values(Boundary::kPeriodic, Boundary::kOpen),
                         [](const auto& info) { return std::string(boundary_name(info.param)); });

}  // namespace
}  // namespace sb::fields
