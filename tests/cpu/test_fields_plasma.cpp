// A cold plasma oscillation with the whole field cycle on the host (fields/, docs/physics.md
// "Self-consistent fields"): deposit, periodic solve, field, gather, leapfrog.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "fields/deposit.hpp"
#include "fields/field.hpp"
#include "fields/green.hpp"
#include "fields/poisson.hpp"

namespace sb::fields {
namespace {

constexpr double kElementaryCharge = 1.602176634e-19;  // C
constexpr double kElectronMass = 9.1093837015e-31;     // kg

struct Point {
  double x, y, z;
};

// Electrons, one per cell, on a 32^3 periodic mesh against the uniform positive background
// that the periodic solve supplies (it removes rho's mean). They are displaced along x by
// A sin(k x) with k the box's longest wave and A a twentieth of a cell, and start at rest: a
// standing Langmuir wave, every column in y and z alike. Each step deposits them, solves,
// differentiates, gathers the field at every electron and kicks and drifts it (leapfrog,
// omega_p dt = 0.2). Recorded at each step: the wave's amplitude and the total energy.
struct Oscillation {
  std::vector<double> amplitude, energy, energy_from_rho_phi;
  double plasma_frequency = 0, dt = 0;
};

Oscillation run_oscillation(int periods) {
  const int n = 32;
  const double h = 1e-3, density = 1e14;  // m, electrons per m^3
  const Mesh mesh{n, h, {0, 0, 0}};
  const double weight = density * h * h * h;  // real electrons per particle: one per cell
  const double q = -weight * kElementaryCharge, m = weight * kElectronMass;
  Oscillation out;
  out.plasma_frequency =
      std::sqrt(density * kElementaryCharge * kElementaryCharge / (kEpsilon0 * kElectronMass));
  out.dt = 0.2 / out.plasma_frequency;
  const double k = 2 * M_PI / (n * h), displacement = 0.05 * h;

  std::vector<Point> electrons;
  std::vector<double> rest, mode_shape, vx;  // x at rest, sin(k x) there; vx at the last half step
  for (int kk = 0; kk < n; ++kk)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double x0 = (i + 0.5) * h;
        rest.push_back(x0);
        mode_shape.push_back(std::sin(k * x0));
        electrons.push_back({x0 + displacement * std::sin(k * x0), j * h, kk * h});
      }
  vx.assign(electrons.size(), 0);

  const auto solver = make_host_solver(mesh, Boundary::kPeriodic);
  std::vector<int64_t> charge(mesh.nodes());
  std::vector<double> rho(mesh.nodes()), phi(mesh.nodes()), ex(mesh.nodes()), ey(mesh.nodes()),
      ez(mesh.nodes());
  const int steps = static_cast<int>(std::ceil(periods * 2 * M_PI / 0.2)) + 10;
  for (int step = 0; step < steps; ++step) {
    std::fill(charge.begin(), charge.end(), 0);
    deposit(
        mesh, Boundary::kPeriodic, electrons.size(),
        [&](uint64_t i) -> const Point& { return electrons[i]; }, 1, charge.data());
    charge_density(mesh, charge.data(), q, rho.data());
    solver->solve(rho.data(), phi.data());
    electric_field(mesh, Boundary::kPeriodic, phi.data(), ex.data(), ey.data(), ez.data());

    double field_energy = 0, rho_phi = 0;
    for (uint64_t node = 0; node < mesh.nodes(); ++node) {
      field_energy += ex[node] * ex[node] + ey[node] * ey[node] + ez[node] * ez[node];
      rho_phi += rho[node] * phi[node];
    }
    field_energy *= 0.5 * kEpsilon0 * h * h * h;
    rho_phi *= 0.5 * h * h * h;

    // Leapfrog's kinetic energy at a whole step is m v(-1/2) v(+1/2) / 2: with it, the energy
    // of a harmonic oscillator is conserved exactly, not only to O(dt^2). The first step starts
    // from rest at t = 0, so v(-1/2) = -a dt / 2.
    double kinetic = 0, mode = 0;
    for (size_t i = 0; i < electrons.size(); ++i) {
      Point& p = electrons[i];
      double e[3];
      gather(mesh, Boundary::kPeriodic, ex.data(), ey.data(), ez.data(), p.x, p.y, p.z, e);
      const double kick = q / m * e[0] * out.dt;
      const double before = step == 0 ? -kick / 2 : vx[i];
      vx[i] = before + kick;
      kinetic += 0.5 * m * before * vx[i];
      mode += (p.x - rest[i]) * mode_shape[i];
      p.x += vx[i] * out.dt;
    }
    out.amplitude.push_back(2 * mode / double(electrons.size()));
    out.energy.push_back(kinetic + field_energy);
    out.energy_from_rho_phi.push_back(kinetic + rho_phi);
  }
  return out;
}

// The angular frequency of a cosine sampled every dt: pi per half period between the first and
// the last zero crossing (each placed by linear interpolation).
double frequency_from_crossings(const std::vector<double>& x, double dt) {
  std::vector<double> crossings;
  for (size_t i = 0; i + 1 < x.size(); ++i)
    if ((x[i] > 0) != (x[i + 1] > 0))
      crossings.push_back(dt * (double(i) + x[i] / (x[i] - x[i + 1])));
  if (crossings.size() < 2) return 0;
  return M_PI * double(crossings.size() - 1) / (crossings.back() - crossings.front());
}

double relative_spread(const std::vector<double>& v) {
  const auto [low, high] = std::minmax_element(v.begin(), v.end());
  return (*high - *low) / v.front();
}

// Tolerances: 2 % on the frequency (the grid's dispersion at k h = 2 pi / 32 lowers it by about
// 0.5 %, leapfrog at omega dt = 0.2 raises it by 0.17 %), 1 % on the total energy over 20 periods.
TEST(FieldsPlasma, ColdOscillationAtThePlasmaFrequencyConservesEnergy) {
  const Oscillation o = run_oscillation(20);
  const double omega = frequency_from_crossings(o.amplitude, o.dt);
  const double frequency_error = omega / o.plasma_frequency - 1;
  const double spread = relative_spread(o.energy),
               spread_rho_phi = relative_spread(o.energy_from_rho_phi);
  std::printf(
      "cold plasma: omega / omega_p - 1 = %+.5f over %zu steps; total energy spread %.2e "
      "(field as eps0 |E|^2 / 2), %.2e (as rho phi / 2)\n",
      frequency_error, o.amplitude.size(), spread, spread_rho_phi);
  EXPECT_LT(std::abs(frequency_error), 0.02);
  EXPECT_LT(spread, 0.01);
  // The run must have oscillated: 20 periods are 40 zero crossings.
  EXPECT_GT(omega * o.dt * double(o.amplitude.size()), 2 * M_PI * 20);
}

}  // namespace
}  // namespace sb::fields
