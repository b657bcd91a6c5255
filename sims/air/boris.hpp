// The relativistic Boris pusher (seed 001) in uniform fields, in a synchronous form: position and
// momentum u = gamma v at the same time, so that a flight can end (in a collision) at any time.
// One sub-step of dt: half an electric kick, the magnetic rotation, half a kick; the position
// advances by dt/2 (u_n + u-)/(g_n + g-) + dt/2 (u+ + u_n+1)/(g+ + g_n+1), each term the mean
// velocity of one half kick. Then the work of the electric force on the displacement is exactly
// the change of m c^2 gamma (u^2 - u'^2 = c^2 (g^2 - g'^2)), whatever dt, and the rotation keeps
// |u|: energy follows the field's work to rounding. docs/physics.md says why and how many
// sub-steps.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hostdev.hpp"
#include "sims/air/constants.hpp"

namespace sb::air {

struct Vec3 {
  double x, y, z;
};

SB_HD inline Vec3 operator+(Vec3 a, Vec3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
SB_HD inline Vec3 operator*(double s, Vec3 a) {
  return {s * a.x, s * a.y, s * a.z};
}
SB_HD inline double dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
SB_HD inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

SB_HD inline double lorentz_factor(Vec3 u) {
  return sqrt(1.0 + dot(u, u) * kInvC2);
}

// Kinetic energy in eV of momentum u (m/s): m u^2 / (gamma + 1), free of cancellation.
SB_HD inline double energy_ev(Vec3 u) {
  return dot(u, u) / (lorentz_factor(u) + 1.0) * (kElectronMass / kElementaryCharge);
}

// |u| of kinetic energy eps eV.
SB_HD inline double momentum_of(double eps) {
  const double k = eps * (1.0 / kElectronRestEnergyEv);
  return kSpeedOfLight * sqrt(k * (k + 2.0));
}

// The fields as the pusher uses them: accel = q E / m (m/s^2) and omega = q B / m (rad/s, divided
// by gamma in the rotation); q = -e for an electron.
struct Fields {
  Vec3 accel;
  Vec3 omega;
  bool magnetic;          // omega is not zero
  double max_angle_rate;  // |omega| / kMaxSubstepAngle: sub-steps per second of flight
};

// The largest rotation of one sub-step, radians: Boris's phase error per sub-step is about
// angle^3 / 12, 1e-4 of a radian at 0.1.
inline constexpr double kMaxSubstepAngle = 0.1;

// One sub-step of dt.
SB_HD inline void boris_substep(Vec3& x, Vec3& u, const Fields& f, double dt) {
  const double half = 0.5 * dt;
  const Vec3 kick = half * f.accel;
  const double g0 = lorentz_factor(u);
  const Vec3 minus = u + kick;
  const double gm = lorentz_factor(minus);
  Vec3 plus = minus;
  if (f.magnetic) {
    const Vec3 t = (half / gm) * f.omega;
    const Vec3 s = (2.0 / (1.0 + dot(t, t))) * t;
    const Vec3 prime = minus + cross(minus, t);
    plus = minus + cross(prime, s);
  }
  const Vec3 next = plus + kick;
  const double g1 = lorentz_factor(next);
  const Vec3 first = (1.0 / (g0 + gm)) * (u + minus);
  const Vec3 second = (1.0 / (gm + g1)) * (plus + next);
  x = x + half * (first + second);
  u = next;
}

// Moves (x, u) through a flight of dt: one sub-step without a magnetic field (exact in momentum
// and energy), else enough that none turns by more than kMaxSubstepAngle.
SB_HD inline void boris_flight(Vec3& x, Vec3& u, const Fields& f, double dt) {
  if (!f.magnetic) {
    boris_substep(x, u, f, dt);
    return;
  }
  const double want = dt * f.max_angle_rate;
  const uint32_t n = want < 4.0e9 ? static_cast<uint32_t>(want) + 1 : 4000000000u;
  const double h = dt / n;
  for (uint32_t i = 0; i < n; ++i)
    boris_substep(x, u, f, h);
}

}  // namespace sb::air
