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

#include "core/det_math.hpp"
#include "core/hostdev.hpp"
#include "sims/air/constants.hpp"

namespace sb::air {

// A vector of T: double, or float in the reduced precisions (core/precision.hpp).
template <class T>
struct Vec3T {
  T x, y, z;
};
using Vec3 = Vec3T<double>;

template <class T>
SB_HD Vec3T<T> operator+(Vec3T<T> a, Vec3T<T> b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class T>
SB_HD Vec3T<T> operator*(T s, Vec3T<T> a) {
  return {s * a.x, s * a.y, s * a.z};
}
template <class T>
SB_HD T dot(Vec3T<T> a, Vec3T<T> b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class T>
SB_HD Vec3T<T> cross(Vec3T<T> a, Vec3T<T> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
// a in the precision of T.
template <class T, class U>
SB_HD Vec3T<T> rounded(Vec3T<U> a) {
  return {static_cast<T>(a.x), static_cast<T>(a.y), static_cast<T>(a.z)};
}

template <class T>
SB_HD T lorentz_factor(Vec3T<T> u) {
  return det_sqrt(T(1) + dot(u, u) * static_cast<T>(kInvC2));
}

// Kinetic energy in eV of momentum u (m/s): m u^2 / (gamma + 1), free of cancellation.
template <class T>
SB_HD T energy_ev(Vec3T<T> u) {
  return dot(u, u) / (lorentz_factor(u) + T(1)) * static_cast<T>(kElectronMass / kElementaryCharge);
}

// |u| of kinetic energy eps eV.
SB_HD inline double momentum_of(double eps) {
  const double k = eps * (1.0 / kElectronRestEnergyEv);
  return kSpeedOfLight * sqrt(k * (k + 2.0));
}

// The fields as the pusher uses them: accel = q E / m (m/s^2) and omega = q B / m (rad/s, divided
// by gamma in the rotation); q = -e for an electron. In T: the run's are double (Fields), a
// reduced precision's step takes them rounded to float (rounded()).
template <class T>
struct FieldsT {
  Vec3T<T> accel;
  Vec3T<T> omega;
  bool magnetic;     // omega is not zero
  T max_angle_rate;  // |omega| / kMaxSubstepAngle: sub-steps per second of flight
};
using Fields = FieldsT<double>;

template <class T>
SB_HD FieldsT<T> rounded(const Fields& f) {
  return {rounded<T>(f.accel), rounded<T>(f.omega), f.magnetic, static_cast<T>(f.max_angle_rate)};
}

// The largest rotation of one sub-step, radians: Boris's phase error per sub-step is about
// angle^3 / 12, 1e-4 of a radian at 0.1.
inline constexpr double kMaxSubstepAngle = 0.1;

// One sub-step of dt: the momentum in T, the position in its own precision C (a coordinate, at
// least as precise), advanced by the sub-step's displacement rounded to it.
template <class C, class T>
SB_HD void boris_substep(Vec3T<C>& x, Vec3T<T>& u, const FieldsT<T>& f, T dt) {
  const T half = T(0.5) * dt;
  const Vec3T<T> kick = half * f.accel;
  const T g0 = lorentz_factor(u);
  const Vec3T<T> minus = u + kick;
  const T gm = lorentz_factor(minus);
  Vec3T<T> plus = minus;
  if (f.magnetic) {
    const Vec3T<T> t = (half / gm) * f.omega;
    const Vec3T<T> s = (T(2) / (T(1) + dot(t, t))) * t;
    const Vec3T<T> prime = minus + cross(minus, t);
    plus = minus + cross(prime, s);
  }
  const Vec3T<T> next = plus + kick;
  const T g1 = lorentz_factor(next);
  const Vec3T<T> first = (T(1) / (g0 + gm)) * (u + minus);
  const Vec3T<T> second = (T(1) / (gm + g1)) * (plus + next);
  x = x + rounded<C>(half * (first + second));
  u = next;
}

// Moves (x, u) through a flight of dt: one sub-step without a magnetic field (exact in momentum
// and energy), else enough that none turns by more than kMaxSubstepAngle.
template <class C, class T>
SB_HD void boris_flight(Vec3T<C>& x, Vec3T<T>& u, const FieldsT<T>& f, T dt) {
  if (!f.magnetic) {
    boris_substep(x, u, f, dt);
    return;
  }
  const T want = dt * f.max_angle_rate;
  const uint32_t n = want < T(4.0e9) ? static_cast<uint32_t>(want) + 1 : 4000000000u;
  const T h = dt / static_cast<T>(n);
  for (uint32_t i = 0; i < n; ++i)
    boris_substep(x, u, f, h);
}

}  // namespace sb::air
