// air (seed 003 §2.2.2 and §7.1): electrons in a gas under uniform electric and
// magnetic fields, by the null-collision Monte Carlo method on LXCat cross sections. A step is
// one flight of random length -ln(r) / nu_max; at its end a real process is chosen with
// probability nu_k(eps) / nu_max, else nothing happens (a null collision). So the steps of a
// phase vary per particle: a flight that reaches the phase's end time stops there (Fate::
// kPhaseEnd) and goes on in the next phase. docs/physics.md describes the method and its checks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/det_math.hpp"
#include "core/draws.hpp"
#include "core/fixed_sum.hpp"
#include "core/particle.hpp"
#include "core/precision.hpp"
#include "core/run_config.hpp"
#include "core/run_result.hpp"
#include "core/sim_state.hpp"
#include "sims/air/boris.hpp"
#include "sims/air/collision_table.hpp"

namespace sb {
namespace air {

// The value of Particle::parked for an electron stopped because its energy left the table.
inline constexpr uint32_t kAboveTable = 0xFFFFFFFFu;

// A particle's fields, for visit().
template <class P, class F>
SB_HD void visit_fields(const P& p, F&& f) {
  f("x", p.x);
  f("y", p.y);
  f("z", p.z);
  f("ux", p.ux);
  f("uy", p.uy);
  f("uz", p.uz);
  f("clock", p.clock);
  f("start_x", p.start_x);
  f("start_y", p.start_y);
  f("start_z", p.start_z);
  p.tag.visit(f);
  f("elastic", p.elastic);
  f("excitations", p.excitations);
  f("parked", p.parked);
  f("start_time", p.start_time);
  f("attached", p.attached);
}

// An electron in precision P (core/precision.hpp): position and clock in P::Coordinate, momentum
// in P::Real. 120 bytes in double, 80 in single.
//
// Where and when its path in the current phase began (the phase's start, or its birth) gives
// the flight averages of the flux coefficients (docs/physics.md, "Transport coefficients"): over
// a flight the integral of v_z is the advance along z, that of z v_z half the change of z^2. An
// electron attached in a phase stays, marked `attached` and frozen where it attached, to the
// phase's end, so that its path counts too; it dies at the next phase's first step.
template <class P>
struct ParticleIn {
  typename P::Coordinate x, y, z;                    // m
  typename P::Real ux, uy, uz;                       // gamma v, m/s
  typename P::Coordinate clock;                      // s
  typename P::Coordinate start_x, start_y, start_z;  // m: where its path in this phase began
  ParticleTag tag;
  uint32_t elastic;      // elastic collisions in this phase
  uint32_t excitations;  // excitations in this phase
  uint32_t parked;       // the step whose flight reached the phase's end (or kAboveTable)
  float start_time;      // when its path in this phase began, in phase lengths after its start
  uint32_t attached;     // 1 from its attachment to the end of that phase

  template <class F>
  SB_HD void visit(F&& f) const {
    visit_fields(*this, f);
  }
};

// Mixed: the doubles first, then 52 bytes of 4-byte fields and a spare word, zero, that rounds the
// record to a whole number of its doubles in the open (hidden padding would escape digests and
// copies).
template <>
struct ParticleIn<precision::Mixed> {
  double x, y, z;
  double clock;
  double start_x, start_y, start_z;
  float ux, uy, uz;
  ParticleTag tag;
  uint32_t elastic;
  uint32_t excitations;
  uint32_t parked;
  float start_time;
  uint32_t attached;
  uint32_t spare;

  template <class F>
  SB_HD void visit(F&& f) const {
    visit_fields(*this, f);
    f("spare", spare);
  }
};

using Particle = ParticleIn<precision::Double>;
static_assert(sizeof(Particle) == 120, "no padding: digests and copies see every byte");
static_assert(sizeof(ParticleIn<precision::Mixed>) == 112, "no hidden padding");
static_assert(sizeof(ParticleIn<precision::Single>) == 80, "no hidden padding");

// The steps p took in window w: up to the one that parked it at the phase end, for a particle
// alive at the end; to its death otherwise (core/particle.hpp).
template <class P>
SB_HD uint32_t steps_in_phase(const ParticleIn<P>& p, PhaseWindow w) {
  const uint32_t base = draw_base(p.tag, w);
  const bool parked_here = is_alive(p.tag) && p.parked >= base && p.parked < w.end;
  return (parked_here ? p.parked + 1 : p.tag.step) - base;
}

// How an ionization shares the energy left after its threshold between the scattered electron and
// the new one: in halves, or a fraction drawn uniformly on [0, 1] for the new one
// (docs/physics.md, "Conventions").
enum class Sharing : uint32_t { kEqual, kUniform };

struct Params {
  const double* cumulative;  // rows x processes: cumulative collision frequency, s^-1
  const ProcessInfo* processes;
  uint32_t n_processes;
  uint32_t rows;
  double inv_step;  // rows per eV
  double nu_max;    // s^-1
  double inv_nu_max;
  Fields fields;
  uint32_t steps_per_phase;  // S: phase k is the window [k S, (k + 1) S)
  Extrapolate extrapolate;
  double phase_time;  // s
  bool thermal_gas;
  double init_radius;  // m: the initial electrons are uniform in a ball of it about the origin
  Sharing sharing;
};

// The row of energy eps and the weight of the next row; false above the top row.
SB_HD inline bool table_row(const Params& prm, double eps, uint32_t& row, double& f) {
  const double r = eps * prm.inv_step;
  if (!(r < static_cast<double>(prm.rows - 1))) return false;
  row = static_cast<uint32_t>(r);
  f = r - row;
  return true;
}

// The process whose cumulative frequency at (row, f) first exceeds target, or n_processes (a
// null collision).
SB_HD inline uint32_t choose_process(const Params& prm, uint32_t row, double f, double target) {
  const uint32_t k = prm.n_processes;
  const double* lo = prm.cumulative + static_cast<uint64_t>(row) * k;
  const double* hi = f > 0.0 ? lo + k : lo;
  const auto at = [&](uint32_t i) { return lo[i] + f * (hi[i] - lo[i]); };
  if (!(target < at(k - 1))) return k;
  uint32_t i = 0;
  while (!(target < at(i)))
    ++i;
  return i;
}

// The kinetic energy of the initial electrons, eV.
inline constexpr double kInitialEnergy = 0.1;

// A point uniform in the unit ball, by rejection from the cube: products and comparisons only, so
// that every engine draws the same bits.
template <class Words>
SB_HD void point_in_ball(Words& words, double u[3]) {
  do {
    u[0] = signed_unit(words.next());
    u[1] = signed_unit(words.next());
    u[2] = signed_unit(words.next());
  } while (u[0] * u[0] + u[1] * u[1] + u[2] * u[2] > 1.0);
}

// An isotropic velocity of kinetic energy eps, as momentum (in double, rounded to the particle's
// precision).
template <class Particle, class Words>
SB_HD void scatter(Particle& p, double eps, Words& words) {
  using Real = decltype(p.ux);
  double d[3];
  isotropic_direction(words, d);
  const double u = momentum_of(eps);
  p.ux = static_cast<Real>(u * d[0]);
  p.uy = static_cast<Real>(u * d[1]);
  p.uz = static_cast<Real>(u * d[2]);
}

// Elastic scattering, isotropic in the centre-of-mass frame of the electron and a molecule of
// mass ratio r = m / M, at rest or drawn from the gas's Maxwellian: v' = v_cm + |g| / (1 + r) n
// for relative velocity g. Non-relativistic kinematics (docs/physics.md), in the particle's
// precision.
template <class Particle>
SB_HD void elastic(Particle& p, const ProcessInfo& proc, bool thermal, WordStream& words) {
  using T = decltype(p.ux);
  using V = Vec3T<T>;
  const T g0 = det_sqrt(T(1) + (p.ux * p.ux + p.uy * p.uy + p.uz * p.uz) * static_cast<T>(kInvC2));
  const V v{p.ux / g0, p.uy / g0, p.uz / g0};
  V gas{T(0), T(0), T(0)};
  if (thermal) {
    double a, b, c, unused;
    normal_pair(words, a, b);
    normal_pair(words, c, unused);
    gas = static_cast<T>(proc.thermal_speed) * rounded<T>(Vec3{a, b, c});
  }
  const T r = static_cast<T>(proc.mass_ratio);
  const V g = v + T(-1) * gas;
  const T speed = det_sqrt(dot(g, g)) / (T(1) + r);
  const V cm = (T(1) / (T(1) + r)) * (r * v + gas);
  double d[3];
  isotropic_direction(words, d);
  const V out = cm + speed * rounded<T>(Vec3{d[0], d[1], d[2]});
  const T g1 = T(1) / det_sqrt(T(1) - dot(out, out) * static_cast<T>(kInvC2));
  p.ux = g1 * out.x;
  p.uy = g1 * out.y;
  p.uz = g1 * out.z;
}

// The end time of the phase that step t belongs to.
SB_HD inline double phase_end_time(const Params& prm, uint32_t t) {
  return static_cast<double>(t / prm.steps_per_phase + 1) * prm.phase_time;
}

// The start of the phase that step t belongs to.
SB_HD inline double phase_start_time(const Params& prm, uint32_t t) {
  return static_cast<double>(t / prm.steps_per_phase) * prm.phase_time;
}

// Starts p's path in the phase of step t where it stands now (the phase's first step, or its
// birth).
template <class P>
SB_HD void start_path(ParticleIn<P>& p, const Params& prm, uint32_t t) {
  p.start_x = p.x;
  p.start_y = p.y;
  p.start_z = p.z;
  p.start_time = static_cast<float>((p.clock - phase_start_time(prm, t)) / prm.phase_time);
}

// One phase's sums, on the host or the device, from which air::HostState::observe finds the
// phase's observables (docs/physics.md, "Transport coefficients"), in exact fixed point (so the
// same in any order and over any number of ranks): over the electrons alive at its end, the first
// and second moments of the positions (the bulk coefficients) and of the energy; over every
// electron's path in the phase (the attached ones' too), the integrals of the flux coefficients;
// the collision counts, and the electrons that ended the phase wrongly, with the worst of them for
// the error.
struct PhaseSums {
  FixedSum energy;   // eV
  FixedSum x, y, z;  // m
  FixedSum zz, rr;   // z^2 and x^2 + y^2, m^2
  // For the phase's standard error of the mean energy: energy^2, eV^2.
  FixedSum energy2;
  // The paths' integrals over time of v (m) and of z v_z and x v_x + y v_y (m^2); of 1 and of
  // the time since the phase's start (phase lengths and their squares: the electrons' time).
  FixedSum path_x, path_y, path_z, path_zz, path_rr, path_time, path_time_time;
  // For the flux drift's standard error, each path's advance a along z (um) and time s (phase
  // lengths): a^2, a s and s^2.
  FixedSum path_z2, path_zt, path_t2;
  uint64_t electrons = 0, elastic = 0, excitations = 0;
  uint64_t attached = 0;      // attachments in the phase
  uint64_t above_table = 0;   // flew above the table's top (--extrapolate error)
  uint64_t short_of_end = 0;  // used every flight of the phase before its end
  double top_energy = 0;      // the most energy of those above the table, eV
  double most_short = 0;      // the most time short of the end of those that stopped, s

  // The fixed-point sums, in one order, for the code that adds them over ranks.
  template <class F>
  void each_fixed(F&& f) {
    for (FixedSum* s :
         {&energy, &x, &y, &z, &zz, &rr, &energy2, &path_x, &path_y, &path_z, &path_zz, &path_rr,
          &path_time, &path_time_time, &path_z2, &path_zt, &path_t2})
      f(*s);
  }

  SB_HD PhaseSums operator+(const PhaseSums& o) const {
    return {energy + o.energy,
            x + o.x,
            y + o.y,
            z + o.z,
            zz + o.zz,
            rr + o.rr,
            energy2 + o.energy2,
            path_x + o.path_x,
            path_y + o.path_y,
            path_z + o.path_z,
            path_zz + o.path_zz,
            path_rr + o.path_rr,
            path_time + o.path_time,
            path_time_time + o.path_time_time,
            path_z2 + o.path_z2,
            path_zt + o.path_zt,
            path_t2 + o.path_t2,
            electrons + o.electrons,
            elastic + o.elastic,
            excitations + o.excitations,
            attached + o.attached,
            above_table + o.above_table,
            short_of_end + o.short_of_end,
            top_energy > o.top_energy ? top_energy : o.top_energy,
            most_short > o.most_short ? most_short : o.most_short};
  }
};

// One electron's part of its phase's sums: that phase's, starting at step `start`. In double in
// every precision (core/precision.hpp).
template <class P>
SB_HD PhaseSums phase_sums(const ParticleIn<P>& p, const Params& prm, uint32_t start) {
  const double end = phase_end_time(prm, start);
  // Its path: over a flight the integral of v is the advance, that of z v_z half the change of
  // z^2 (the same for x and y); from its start to the phase's end, or to its attachment.
  const double ax = p.x - p.start_x, ay = p.y - p.start_y, az = p.z - p.start_z;
  const double from = p.start_time, to = (p.clock - phase_start_time(prm, start)) / prm.phase_time;
  const double time = to - from;
  PhaseSums s{};
  s.path_x = FixedSum::of(ax);
  s.path_y = FixedSum::of(ay);
  s.path_z = FixedSum::of(az);
  s.path_zz = FixedSum::of(0.5 * az * (p.z + p.start_z));
  s.path_rr = FixedSum::of(0.5 * (ax * (p.x + p.start_x) + ay * (p.y + p.start_y)));
  s.path_time = FixedSum::of(time);
  s.path_time_time = FixedSum::of(0.5 * time * (to + from));
  s.path_z2 = FixedSum::of(1e12 * az * az);
  s.path_zt = FixedSum::of(1e6 * az * time);
  s.path_t2 = FixedSum::of(time * time);
  s.elastic = p.elastic;
  s.excitations = p.excitations;
  if (p.attached) {
    s.attached = 1;
    return s;
  }
  const Vec3 u{p.ux, p.uy, p.uz};
  const double energy = energy_ev(u);
  // Under --extrapolate error an electron is above the table where a flight ended above it (it
  // parked) or where the phase ended with it above, with no flight ending to see it.
  uint32_t row = 0;
  double f = 0;
  const bool above = p.parked == kAboveTable ||
                     (prm.extrapolate == Extrapolate::kError && !table_row(prm, energy, row, f));
  const bool short_of_end = p.clock != static_cast<typename P::Coordinate>(end);
  s.energy = FixedSum::of(energy);
  s.x = FixedSum::of(p.x);
  s.y = FixedSum::of(p.y);
  s.z = FixedSum::of(p.z);
  s.zz = FixedSum::of(p.z * p.z);
  s.rr = FixedSum::of(p.x * p.x + p.y * p.y);
  s.energy2 = FixedSum::of(energy * energy);
  s.electrons = 1;
  s.above_table = above ? 1u : 0u;
  s.short_of_end = short_of_end ? 1u : 0u;
  s.top_energy = above ? energy : 0.0;
  s.most_short = short_of_end ? end - p.clock : 0.0;
  return s;
}

// air's parameters (defined in air.cpp).
const DeclaredParameter& gas();
const DeclaredParameter& pressure();
const DeclaredParameter& temperature();
const DeclaredParameter& electric_field();  // optional: V/m, or reduced_field
const DeclaredParameter& reduced_field();   // optional: Td, or electric_field
const DeclaredParameter& magnetic_field();
const DeclaredParameter& field_angle();
const DeclaredParameter& thermal_gas();
const DeclaredParameter& cross_section();  // optional: the default file when not given
// The first of `candidates` that is a regular file: air's default cross sections (the sources'
// data/lxcat-siglo.txt, else beside the executable). Throws UsageError naming cross_section()'s
// option where none is.
std::string first_default_file(const std::vector<std::string>& candidates);
const DeclaredParameter& phases();
const DeclaredParameter& phase_time();
const DeclaredParameter& extrapolate();
const DeclaredParameter& max_energy();          // optional: the smallest elastic top when not given
const DeclaredParameter& init_radius();         // the initial swarm's ball; 0: all at the origin
const DeclaredParameter& ionization_sharing();  // Sharing
const DeclaredParameter& three_body_density();  // TIMES_N cross sections: total or partial
// --grid and --field-solver of the space charge: fields/mesh_nodes.hpp, shared with pic.
inline constexpr int kGridNodes = 64;
inline constexpr int kMostGridNodes = 512;  // the open solve transforms (2 * 512)^3

// The cross sections (read from their file and tabulated once per run), the fields and the
// phase plan: one for every precision, whose steps read the table in double.
class Setup {
 public:
  explicit Setup(const RunConfig& c);
  Params params() const;
  PhasePlan phases() const { return {phases_, steps_per_phase_}; }

  const std::string& path() const { return path_; }
  const CollisionTable& table() const { return table_; }
  double density() const { return density_; }

 private:
  std::string path_;
  CollisionTable table_;
  Fields fields_{};
  double density_ = 0;
  double phase_time_ = 0;
  uint32_t phases_ = 0;
  uint32_t steps_per_phase_ = 0;
  Extrapolate extrapolate_ = Extrapolate::kError;
  bool thermal_ = false;
  double init_radius_ = 0;
  Sharing sharing_ = Sharing::kEqual;
};

// The collision table and the observables on the host.
class HostState {
 public:
  static constexpr bool kPhaseWork = false;  // the collision table, no grid

  explicit HostState(std::shared_ptr<const Setup> setup) : setup_(std::move(setup)) {}
  Params params() const { return setup_->params(); }
  template <class Particle>
  void before_phase(std::vector<Particle>&, PhaseWindow) {}
  // The phase's observables from this rank's sums over the electrons alive at its end, summed
  // over the ranks; RunError for an electron that left the table (--extrapolate error) or used
  // every step of the phase.
  Observables observe(PhaseSums sums, PhaseWindow w, PhaseEvents events);

  const CollisionTable& table() const { return setup_->table(); }
  double density() const { return setup_->density(); }

 private:
  std::shared_ptr<const Setup> setup_;
  // The swarm's centre and its spreads about it (z; x and y together), m and m^2, at
  // the end of the last phase observed; the first phase sets the initial swarm's (observe).
  double mean_x_ = 0, mean_y_ = 0, mean_z_ = 0, spread_z_ = 0, spread_r_ = 0;
};

// The electron density projected on the x-z plane (z: along the drift, up), for --density-png
// (air.cpp instantiates it for every precision).
template <class Particle>
Image picture(const std::vector<Particle>& ps);

}  // namespace air

// air in the applied fields in precision P (--precision, core/precision.hpp); sims/air/
// air_family.hpp lists the three, and the space charge's, which shares the double one's members.
template <class P>
struct AirSimIn {
  using Particle = air::ParticleIn<P>;
  using Params = air::Params;
  using Coordinate = typename P::Coordinate;
  using Real = typename P::Real;

  static constexpr const char* kName = "air";
  static constexpr const char* kDescription =
      "electrons in a gas (LXCat cross sections) under uniform E and B: null-collision Monte "
      "Carlo, one random flight per step, relativistic Boris pusher (docs/physics.md)";
  // Flights count null collisions too; swarm codes count the real ones.
  static constexpr const char* kWorkObservable = "real_collisions";
  // Its step takes more registers than a block of 1024 threads leaves, in every precision
  // (core/sim_interface.hpp).
  static constexpr bool kLargeStep = true;

  using Setup = air::Setup;
  // The observables after each phase, from the sums over its electrons (air::PhaseSums), which
  // follow the swarm's drift from phase to phase.
  using PhaseSums = air::PhaseSums;
  SB_HD static PhaseSums phase_sums(const Particle& p, const Params& prm, PhaseWindow w) {
    return air::phase_sums(p, prm, w.start);
  }
  using HostState = air::HostState;
  class DeviceState;  // sims/air/device_state.cuh

  static Image picture(const std::vector<Particle>& ps) { return air::picture(ps); }

  // At clock 0, with kInitialEnergy eV in an isotropic direction (at rest an electron would have
  // no collision frequency, nu = N sigma v, and without a field never move); at the origin, or
  // uniform in the ball of --init-radius about it, drawn after the direction so that a radius of 0
  // keeps the digests of air before the option.
  static Particle initial(uint64_t index, const Params& prm, DrawKey key) {
    Particle p{};
    InitWords words(key, index);
    air::scatter(p, air::kInitialEnergy, words);
    if (prm.init_radius > 0) {
      double u[3];
      air::point_in_ball(words, u);
      p.x = static_cast<Coordinate>(prm.init_radius * u[0]);
      p.y = static_cast<Coordinate>(prm.init_radius * u[1]);
      p.z = static_cast<Coordinate>(prm.init_radius * u[2]);
    }
    p.tag = ParticleTag::make(index, 0);
    return p;
  }

  SB_HD static Fate step(Particle& p, Particle& child, const Params& prm, StepDraw& draw) {
    return step_in(p, child, prm, prm.fields, draw);
  }

  SB_HD static bool simulates_children(const Params&) { return true; }

 protected:
  // The step in the fields `f`: the applied ones, or with the space charge's
  // (sims/air/space_charge.hpp). The flight's length and its draws are double in every precision;
  // the clock adds it in Coordinate, the pusher moves the momentum in Real.
  SB_HD static Fate step_in(Particle& p, Particle& child, const Params& prm, const air::Fields& f,
                            StepDraw& draw) {
    const uint32_t t = draw.step();
    if (t % prm.steps_per_phase == 0) {    // the phase's first step: its counts start afresh
      if (p.attached) return Fate::kDied;  // its path in the last phase is counted
      p.elastic = 0;
      p.excitations = 0;
      air::start_path(p, prm, t);
    }
    const Philox4x32Output w = draw.block(0);
    const Coordinate end = static_cast<Coordinate>(air::phase_end_time(prm, t));
    const Coordinate flight =
        static_cast<Coordinate>(-det_log(unit_open_closed(w.w0, w.w1)) * prm.inv_nu_max);
    air::Vec3T<Coordinate> x{p.x, p.y, p.z};
    air::Vec3T<Real> u{p.ux, p.uy, p.uz};
    const bool cut = !(p.clock + flight < end);
    air::boris_flight(x, u, air::rounded<Real>(f), static_cast<Real>(cut ? end - p.clock : flight));
    p.x = x.x;
    p.y = x.y;
    p.z = x.z;
    p.ux = u.x;
    p.uy = u.y;
    p.uz = u.z;
    if (cut) {
      p.clock = end;
      p.parked = t;
      return Fate::kPhaseEnd;
    }
    p.clock += flight;
    return collide(p, child, prm, draw, unit_double(w.w2, w.w3) * prm.nu_max);
  }

 private:
  // The collision at the end of a flight; `target` is uniform in [0, nu_max). The energy is the
  // momentum's, in Real; the table and the energy shares are double.
  SB_HD static Fate collide(Particle& p, Particle& child, const Params& prm, StepDraw& draw,
                            double target) {
    const double eps = air::energy_ev(air::Vec3T<Real>{p.ux, p.uy, p.uz});
    uint32_t row = prm.rows - 1;
    double f = 0.0;
    if (!air::table_row(prm, eps, row, f)) {
      if (prm.extrapolate == air::Extrapolate::kZero) return Fate::kAlive;
      if (prm.extrapolate == air::Extrapolate::kError) {
        p.parked = air::kAboveTable;  // the host reports it after the phase
        return Fate::kPhaseEnd;
      }
    }
    const uint32_t k = air::choose_process(prm, row, f, target);
    if (k == prm.n_processes) return Fate::kAlive;
    const air::ProcessInfo proc = prm.processes[k];
    WordStream words(draw, 1);
    switch (proc.effect) {
      case air::Effect::kElastic:
        air::elastic(p, proc, prm.thermal_gas, words);
        ++p.elastic;
        return Fate::kAlive;
      case air::Effect::kExcitation:
        // Interpolation between rows may give a frequency just below the threshold: no loss
        // possible, so a null collision.
        if (!(eps > proc.threshold)) return Fate::kAlive;
        air::scatter(p, eps - proc.threshold, words);
        ++p.excitations;
        return Fate::kAlive;
      case air::Effect::kIonization: {
        if (!(eps > proc.threshold)) return Fate::kAlive;
        const double left = eps - proc.threshold;
        // The new electron's share (drawn before the directions: equal sharing draws nothing,
        // which keeps its digests).
        const double share = prm.sharing == air::Sharing::kEqual
                                 ? 0.5 * left
                                 : next_unit_double(words) * left;
        child = p;
        child.elastic = 0;
        child.excitations = 0;
        child.parked = 0;
        air::start_path(child, prm, draw.step());
        air::scatter(p, left - share, words);
        air::scatter(child, share, words);
        return Fate::kSpawned;
      }
      case air::Effect::kAttachment:  // kept, where it attached, to the phase's end
        p.attached = 1;
        p.parked = draw.step();
        return Fate::kPhaseEnd;
    }
    return Fate::kAlive;
  }
};

using AirSim = AirSimIn<precision::Double>;

}  // namespace sb
