// ccp (docs/physics.md, "ccp: the Turner helium discharge"): the capacitively coupled helium
// discharge of Turner et al. (2013), a 1D3V electrostatic particle-in-cell code with Monte Carlo
// collisions of electrons and He+ ions between a grounded and an RF-driven electrode. A phase is
// one step: the grid work before it deposits both species on the nodes and solves the field
// (sims/ccp/field.hpp), the step moves every particle in that field (leapfrog), absorbs it at an
// electrode and collides it with the gas (null collisions under a majorant).
//
// Ionization makes two particles, and an engine's step makes at most one child: a record holds an
// electron, an ion, or both. An ionization's child is a pair (the new electron and the new ion at
// the primary's position); a pair moves both its particles in its next step and then gives its
// electron to a child of its own. Every particle so takes every step, in the field of its step.
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
#include "core/run_config.hpp"
#include "core/run_result.hpp"
#include "core/sim_state.hpp"
#include "sims/ccp/constants.hpp"
#include "sims/ccp/field.hpp"

namespace sb {
namespace ccp {

// What a record holds (Particle::flags), and what happened to it in its last step: marks that
// the phase's sums count (phase_sums) and its next step clears.
enum Flag : uint32_t {
  kElectron = 1u << 0,
  kIon = 1u << 1,
  kElectronLeft = 1u << 2,   // its electron reached the grounded electrode (x = 0)
  kElectronRight = 1u << 3,  // the driven one (x = L)
  kIonLeft = 1u << 4,
  kIonRight = 1u << 5,
  kBornOfIonization = 1u << 6,  // a pair an ionization made
  kElectronAbove = 1u << 7,     // its electron's collision frequency exceeded the majorant
  kIonAbove = 1u << 8,
};
inline constexpr uint32_t kSpecies = kElectron | kIon;
// The replica a record belongs to (--replicas: independent discharges in one run, each with its
// own field) is kept in the flags' top 16 bits, and passed on to its children.
inline constexpr uint32_t kReplicaShift = 16;
inline constexpr uint32_t kReplicaBits = 0xFFFFu << kReplicaShift;
SB_HD inline uint32_t replica_of(uint32_t flags) {
  return flags >> kReplicaShift;
}

// 96 bytes: an electron's and an ion's position (m) and velocity (m/s), where the flags say it
// holds them (zero otherwise); the energy each gained from the field in the last step (eV; where
// its frequency exceeded the majorant, its energy instead, for the run's error).
struct alignas(16) Particle {
  double xe, vxe, vye, vze;
  double xi, vxi, vyi, vzi;
  float work_e, work_i;
  uint32_t flags;
  ParticleTag tag;

  template <class F>
  SB_HD void visit(F&& f) const {
    f("xe", xe);
    f("vxe", vxe);
    f("vye", vye);
    f("vze", vze);
    f("xi", xi);
    f("vxi", vxi);
    f("vyi", vyi);
    f("vzi", vzi);
    f("work_e", work_e);
    f("work_i", work_i);
    f("flags", flags);
    tag.visit(f);
  }
};
static_assert(sizeof(Particle) == 96, "no padding: digests and copies see every byte");

// Cross sections on one energy grid, linear between its rows, the last row's above the top, zero
// below a process's first energy: `columns` processes (sigma[row * columns + k], m^2).
struct Table {
  const double* energy;  // eV, ascending
  const double* sigma;
  uint32_t rows;
  uint32_t columns;
};

// The row whose segment holds `eps` and the fraction along it (1 at or above the top).
SB_HD inline uint32_t table_row(const Table& t, double eps, double& frac) {
  if (eps >= t.energy[t.rows - 1]) {
    frac = 1;
    return t.rows - 2;
  }
  if (eps <= t.energy[0]) {
    frac = 0;
    return 0;
  }
  uint32_t lo = 0, hi = t.rows - 1;  // energy[lo] <= eps < energy[hi]
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (t.energy[mid] <= eps) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  frac = (eps - t.energy[lo]) / (t.energy[lo + 1] - t.energy[lo]);
  return lo;
}

SB_HD inline double table_sigma(const Table& t, uint32_t row, double frac, uint32_t k) {
  const double a = t.sigma[row * t.columns + k], b = t.sigma[(row + 1) * t.columns + k];
  return a + (b - a) * frac;
}

struct Params {
  Mesh mesh;
  const double* field;  // V/m at the nodes, this step's, a mesh's nodes per replica in turn
  Table electron;       // elastic, excitation 1, excitation 2, ionization
  Table ion;            // isotropic, backward (centre-of-mass energy)
  double dt;            // s
  double electron_kick, ion_kick;          // q/m dt: m/s per V/m
  double gas_density;                      // m^-3
  double gas_speed;                        // sqrt(k T / M): the gas's velocity spread per axis, m/s
  double electron_majorant, ion_majorant;  // s^-1
  uint64_t electron_chance, ion_chance;    // 1 - exp(-majorant dt), as draw thresholds
  uint32_t average_from;                   // the first step of the averaging window
  double mid_lo, mid_hi;                   // the mid-plane cell, m, for the electron temperature
  uint64_t init_electrons;                 // N: records [0, N) start as electrons, [N, 2N) ions
  uint64_t replica_electrons;              // N / replicas: each replica's share of either
  double electron_spread;                  // sqrt(k Te / m_e) of the initial electrons, m/s
};

inline constexpr double kHalfElectronMassPerCharge = 0.5 * kElectronMass / kElementaryCharge;
inline constexpr double kHalfIonMassPerCharge = 0.5 * kIonMass / kElementaryCharge;
inline constexpr double kQuarterIonMassPerCharge = 0.25 * kIonMass / kElementaryCharge;
// The extra draw blocks of a pair's ion start here, far past any its electron uses.
inline constexpr uint32_t kIonBlocks = 1u << 16;

// A velocity drawn from the gas's Maxwellian.
SB_HD inline void gas_velocity(const Params& prm, WordStream& words, double v[3]) {
  double a, b, c, unused;
  normal_pair(words, a, b);
  normal_pair(words, c, unused);
  v[0] = prm.gas_speed * a;
  v[1] = prm.gas_speed * b;
  v[2] = prm.gas_speed * c;
}

// An isotropic velocity of `speed`.
SB_HD inline void isotropic_velocity(WordStream& words, double speed, double& vx, double& vy,
                                     double& vz) {
  double d[3];
  isotropic_direction(words, d);
  vx = speed * d[0];
  vy = speed * d[1];
  vz = speed * d[2];
}

// Scattering isotropic in the centre-of-mass frame of a particle of velocity v and mass m on a gas
// atom of velocity a and mass M: v' = v_cm + M / (m + M) |v - a| n.
SB_HD inline void scatter_on_atom(double& vx, double& vy, double& vz, const double a[3],
                                  double m_over_sum, double big_over_sum, WordStream& words) {
  const double gx = vx - a[0], gy = vy - a[1], gz = vz - a[2];
  const double g = det_sqrt(gx * gx + gy * gy + gz * gz);
  const double cx = m_over_sum * vx + big_over_sum * a[0];
  const double cy = m_over_sum * vy + big_over_sum * a[1];
  const double cz = m_over_sum * vz + big_over_sum * a[2];
  double nx, ny, nz;
  isotropic_velocity(words, big_over_sum * g, nx, ny, nz);
  vx = cx + nx;
  vy = cy + ny;
  vz = cz + nz;
}

// The kick in the field at x and the drift; returns the new position. `work` is the kinetic
// energy gained, eV.
SB_HD inline double kick_and_drift(const Params& prm, uint32_t flags, double kick, double half_mass,
                                   double x, double& vx, float& work) {
  const double* field = prm.field + uint64_t{replica_of(flags)} * (prm.mesh.cells + 1);
  const double e = gather(prm.mesh, field, x);
  const double v0 = vx;
  vx = v0 + kick * e;
  work = static_cast<float>(half_mass * (vx * vx - v0 * v0));
  return x + vx * prm.dt;
}

// Whether x is past an electrode: the flag of the left one or the right one, else 0.
SB_HD inline uint32_t wall_of(const Params& prm, double x, uint32_t left, uint32_t right) {
  return x <= 0 ? left : x >= prm.mesh.length ? right : 0u;
}

// The electron's step; true where it ionized, `child` then the new pair.
SB_HD inline bool move_electron(Particle& p, Particle& child, const Params& prm, StepDraw& draw) {
  p.xe = kick_and_drift(prm, p.flags, prm.electron_kick, kHalfElectronMassPerCharge, p.xe, p.vxe,
                        p.work_e);
  if (const uint32_t wall = wall_of(prm, p.xe, kElectronLeft, kElectronRight)) {
    p.flags = (p.flags & ~kElectron) | wall;
    p.xe = p.vxe = p.vye = p.vze = 0;
    return false;
  }
  if (draw.u32() >= prm.electron_chance) return false;
  const double v2 = p.vxe * p.vxe + p.vye * p.vye + p.vze * p.vze;
  const double eps = kHalfElectronMassPerCharge * v2, speed = det_sqrt(v2);
  double frac;
  const uint32_t row = table_row(prm.electron, eps, frac);
  const double n_v = prm.gas_density * speed;
  const double nu_el = n_v * table_sigma(prm.electron, row, frac, 0);
  const double nu_x1 = n_v * table_sigma(prm.electron, row, frac, 1);
  const double nu_x2 = n_v * table_sigma(prm.electron, row, frac, 2);
  const double nu_io = n_v * table_sigma(prm.electron, row, frac, 3);
  if (nu_el + nu_x1 + nu_x2 + nu_io > prm.electron_majorant) {
    p.flags |= kElectronAbove;
    p.work_e = static_cast<float>(eps);
    return false;
  }
  WordStream words(draw, 0);
  const double target = next_unit_double(words) * prm.electron_majorant;
  if (target < nu_el) {
    double a[3];
    gas_velocity(prm, words, a);
    constexpr double kSum = kElectronMass + kIonMass;
    scatter_on_atom(p.vxe, p.vye, p.vze, a, kElectronMass / kSum, kIonMass / kSum, words);
    return false;
  }
  const auto excite = [&](double threshold) {
    const double left = eps > threshold ? eps - threshold : 0.0;
    isotropic_velocity(words, det_sqrt(left / kHalfElectronMassPerCharge), p.vxe, p.vye, p.vze);
  };
  if (target < nu_el + nu_x1) {
    excite(kExcitation1Threshold);
    return false;
  }
  if (target < nu_el + nu_x1 + nu_x2) {
    excite(kExcitation2Threshold);
    return false;
  }
  if (target >= nu_el + nu_x1 + nu_x2 + nu_io) return false;  // a null collision
  // Ionization: the energy above the threshold shared equally by the two electrons.
  const double share = eps > kIonizationThreshold ? 0.5 * (eps - kIonizationThreshold) : 0.0;
  const double speed_after = det_sqrt(share / kHalfElectronMassPerCharge);
  isotropic_velocity(words, speed_after, p.vxe, p.vye, p.vze);
  child = Particle{};
  child.flags = kElectron | kIon | kBornOfIonization | (p.flags & kReplicaBits);
  child.xe = child.xi = p.xe;
  isotropic_velocity(words, speed_after, child.vxe, child.vye, child.vze);
  double a[3];
  gas_velocity(prm, words, a);
  child.vxi = a[0];
  child.vyi = a[1];
  child.vzi = a[2];
  return true;
}

// The ion's step: isotropic or backward scattering in the centre-of-mass energy on an atom drawn
// from the gas.
SB_HD inline void move_ion(Particle& p, const Params& prm, StepDraw& draw) {
  p.xi = kick_and_drift(prm, p.flags, prm.ion_kick, kHalfIonMassPerCharge, p.xi, p.vxi, p.work_i);
  if (const uint32_t wall = wall_of(prm, p.xi, kIonLeft, kIonRight)) {
    p.flags = (p.flags & ~kIon) | wall;
    p.xi = p.vxi = p.vyi = p.vzi = 0;
    return;
  }
  const bool pair = (p.flags & kElectron) != 0;
  WordStream words(draw, pair ? kIonBlocks : 0);
  const uint32_t test = pair ? words.next() : draw.u32();
  if (test >= prm.ion_chance) return;
  double a[3];
  gas_velocity(prm, words, a);
  const double gx = p.vxi - a[0], gy = p.vyi - a[1], gz = p.vzi - a[2];
  const double g2 = gx * gx + gy * gy + gz * gz;
  double frac;
  const uint32_t row = table_row(prm.ion, kQuarterIonMassPerCharge * g2, frac);
  const double n_g = prm.gas_density * det_sqrt(g2);
  const double nu_iso = n_g * table_sigma(prm.ion, row, frac, 0);
  const double nu_back = n_g * table_sigma(prm.ion, row, frac, 1);
  if (nu_iso + nu_back > prm.ion_majorant) {
    p.flags |= kIonAbove;
    p.work_i = static_cast<float>(kQuarterIonMassPerCharge * g2);
    return;
  }
  const double target = next_unit_double(words) * prm.ion_majorant;
  if (target < nu_iso) {
    scatter_on_atom(p.vxi, p.vyi, p.vzi, a, 0.5, 0.5, words);
  } else if (target < nu_iso + nu_back) {
    p.vxi = a[0];  // charge exchange: the ion leaves with the atom's velocity
    p.vyi = a[1];
    p.vzi = a[2];
  }
}

// One phase's sums over the records alive at its end, exact in any order and over any number of
// ranks: the particles of each species, the events of the phase's step, the energy the field gave
// each species, and, in the averaging window, the electrons in the mid-plane cell and their energy.
struct PhaseSums {
  uint64_t electrons = 0, ions = 0, ionizations = 0;
  uint64_t electron_left = 0, electron_right = 0, ion_left = 0, ion_right = 0;
  uint64_t electrons_above = 0, ions_above = 0;  // past the majorant
  double top_electron = 0, top_ion = 0;          // the most energy of those, eV
  uint64_t mid_electrons = 0;                    // in the window
  FixedSum work_e, work_i;                       // eV
  FixedSum mid_energy;                           // eV, in the window

  template <class F>
  void each_fixed(F&& f) {
    for (FixedSum* s : {&work_e, &work_i, &mid_energy})
      f(*s);
  }
  template <class F>
  void each_count(F&& f) {
    for (uint64_t* n : {&electrons, &ions, &ionizations, &electron_left, &electron_right, &ion_left,
                        &ion_right, &electrons_above, &ions_above, &mid_electrons})
      f(*n);
  }

  SB_HD PhaseSums operator+(const PhaseSums& o) const {
    PhaseSums s;
    s.electrons = electrons + o.electrons;
    s.ions = ions + o.ions;
    s.ionizations = ionizations + o.ionizations;
    s.electron_left = electron_left + o.electron_left;
    s.electron_right = electron_right + o.electron_right;
    s.ion_left = ion_left + o.ion_left;
    s.ion_right = ion_right + o.ion_right;
    s.electrons_above = electrons_above + o.electrons_above;
    s.ions_above = ions_above + o.ions_above;
    s.top_electron = top_electron > o.top_electron ? top_electron : o.top_electron;
    s.top_ion = top_ion > o.top_ion ? top_ion : o.top_ion;
    s.mid_electrons = mid_electrons + o.mid_electrons;
    s.work_e = work_e + o.work_e;
    s.work_i = work_i + o.work_i;
    s.mid_energy = mid_energy + o.mid_energy;
    return s;
  }
};

SB_HD inline PhaseSums phase_sums(const Particle& p, const Params& prm, PhaseWindow w) {
  PhaseSums s;
  const uint32_t f = p.flags;
  s.electrons = (f & kElectron) ? 1 : 0;
  s.ions = (f & kIon) ? 1 : 0;
  s.ionizations = (f & kBornOfIonization) ? 1 : 0;
  s.electron_left = (f & kElectronLeft) ? 1 : 0;
  s.electron_right = (f & kElectronRight) ? 1 : 0;
  s.ion_left = (f & kIonLeft) ? 1 : 0;
  s.ion_right = (f & kIonRight) ? 1 : 0;
  const bool above_e = (f & kElectronAbove) != 0, above_i = (f & kIonAbove) != 0;
  if (above_e) {
    s.electrons_above = 1;
    s.top_electron = p.work_e;
  }
  if (above_i) {
    s.ions_above = 1;
    s.top_ion = p.work_i;
  }
  if (!above_e) s.work_e = FixedSum::of(p.work_e);
  if (!above_i) s.work_i = FixedSum::of(p.work_i);
  if (w.start >= prm.average_from && (f & kElectron) && p.xe >= prm.mid_lo && p.xe < prm.mid_hi) {
    s.mid_electrons = 1;
    s.mid_energy =
        FixedSum::of(kHalfElectronMassPerCharge * (p.vxe * p.vxe + p.vye * p.vye + p.vze * p.vze));
  }
  return s;
}

// The run's deposits over the averaging window, from the state that deposited them (the host's or
// the device's): each species' weights at each node of each replica (a mesh's nodes per replica
// in turn), summed over the window's steps (units of 2^-32 of a particle).
struct WindowDeposits {
  std::vector<int64_t> electrons, ions;
  uint64_t steps = 0;
};

class Setup;
struct StepGrid;  // sims/ccp/device_state.cuh

// The field on the host, the tallies of the periods and of the window, and the run's summary.
class HostState {
 public:
  static constexpr bool kStreamsPhaseWork = false;
  explicit HostState(std::shared_ptr<const Setup> setup);
  Params params() const;
  void before_phase(std::vector<Particle>& ps, PhaseWindow w);
  // The ledger of each RF period (a row at each period's end; none between) and the window's
  // sums; RunError for a particle past the majorant.
  Observables observe(PhaseSums sums, PhaseWindow w, PhaseEvents events);
  WindowDeposits deposits() const { return window_; }
  // The benchmark's measurements from the window (the deposits of whichever state solved the
  // field) and this state's sums.
  RunSummary summarize(const WindowDeposits& d) const;

  const Setup& setup() const { return *setup_; }

 private:
  std::shared_ptr<const Setup> setup_;
  std::vector<int64_t> net_;
  std::vector<ChargeSum> scratch_;
  std::vector<double> potential_, field_;
  WindowDeposits window_;
  // This period's ledger and the window's sums.
  PhaseSums period_{}, window_sums_{};
  uint64_t period_start_electrons_ = 0, period_start_ions_ = 0;
  bool started_ = false;
  uint64_t window_steps_ = 0;
};

// Every parameter of the case table an option; the case gives those not given.
class Setup {
 public:
  explicit Setup(const RunConfig& c);
  PhasePlan phases() const { return {total_steps_, 1}; }
  Params params(const double* field) const;
  const Mesh& mesh() const { return mesh_; }
  double voltage_at(uint32_t step) const;  // V at the driven electrode at step `step`
  bool in_window(PhaseWindow w) const { return w.start >= average_from_; }
  uint32_t average_from() const { return average_from_; }  // the window's first step
  uint32_t steps_per_period() const { return steps_per_period_; }
  double weight() const { return weight_; }  // particles per m^2 of electrode per record
  uint32_t replicas() const { return replicas_; }
  uint32_t nodes() const { return mesh_.cells + 1; }
  double dt() const { return dt_; }
  double rhs_scale() const { return rhs_scale_; }
  double wall_scale() const { return wall_scale_; }
  const std::vector<double>& electron_energy() const { return e_energy_; }
  const std::vector<double>& electron_sigma() const { return e_sigma_; }
  const std::vector<double>& ion_energy() const { return i_energy_; }
  const std::vector<double>& ion_sigma() const { return i_sigma_; }
  // The reference ion profile for the X^2 statistic (Turner et al. 2013), where the mesh is a
  // case's: x, mean and population standard deviation at each node; empty otherwise.
  const std::vector<double>& reference_mean() const { return ref_mean_; }
  const std::vector<double>& reference_sigma() const { return ref_sigma_; }
  bool has_reference() const { return !ref_mean_.empty(); }
  // The acceptance statistic of an ion profile against the reference: the sum over the nodes of
  // the squared difference from its mean over its population variance.
  double x2(const std::vector<double>& ion_density) const;

 private:
  Mesh mesh_{};
  double dt_ = 0, frequency_ = 0, voltage_ = 0, gas_density_ = 0, gas_temperature_ = 0;
  double weight_ = 0, rhs_scale_ = 0, wall_scale_ = 0, electron_speed_ = 0;
  double electron_majorant_ = 0, ion_majorant_ = 0;
  uint32_t steps_per_period_ = 0, total_steps_ = 0, average_from_ = 0, replicas_ = 1;
  uint64_t init_electrons_ = 0;
  uint64_t seed_ = 0;
  std::vector<double> e_energy_, e_sigma_, i_energy_, i_sigma_, ref_mean_, ref_sigma_;
};

// The reference profiles' file for a mesh of `cells` cells, or empty.
std::string reference_file(uint32_t cells, double gas_density);

const DeclaredParameter& case_number();

}  // namespace ccp

struct CcpSim {
  using Particle = ccp::Particle;
  using Params = ccp::Params;
  using Setup = ccp::Setup;
  using HostState = ccp::HostState;
  class DeviceState;  // sims/ccp/device_state.cuh
  using StepGrid = ccp::StepGrid;  // the grid work of whole steps in one kernel (the same file)
  using PhaseSums = ccp::PhaseSums;

  static constexpr const char* kName = "ccp";
  static constexpr const char* kDescription =
      "1D3V PIC/MCC of a capacitive helium discharge, electrons and He+ between a grounded and "
      "an RF electrode: the Turner et al. (2013) benchmark, --case 1..4 (docs/physics.md)";
  static constexpr const char* kWorkObservable = "ionizations";
  static constexpr bool kLargeStep = true;
  static DeclaredParameters parameters();

  SB_HD static PhaseSums phase_sums(const Particle& p, const Params& prm, PhaseWindow w) {
    return ccp::phase_sums(p, prm, w);
  }

  // Records [0, N) electrons, [N, 2N) ions (init_n = 2N), uniform in the gap, Maxwellian at the
  // initial electron temperature and the gas's.
  static Particle initial(uint64_t index, const Params& prm, DrawKey key) {
    using namespace ccp;
    Particle p{};
    InitWords words(key, index);
    const uint64_t of_species = index < prm.init_electrons ? index : index - prm.init_electrons;
    const auto replica = static_cast<uint32_t>(of_species / prm.replica_electrons);
    const double x = prm.mesh.length * next_unit_double(words);
    double a, b, c, unused;
    normal_pair(words, a, b);
    normal_pair(words, c, unused);
    if (index < prm.init_electrons) {
      p.flags = kElectron | replica << kReplicaShift;
      p.xe = x;
      p.vxe = prm.electron_spread * a;
      p.vye = prm.electron_spread * b;
      p.vze = prm.electron_spread * c;
    } else {
      p.flags = kIon | replica << kReplicaShift;
      p.xi = x;
      p.vxi = prm.gas_speed * a;
      p.vyi = prm.gas_speed * b;
      p.vzi = prm.gas_speed * c;
    }
    p.tag = ParticleTag::make(index, 0);
    return p;
  }

  SB_HD static Fate step(Particle& p, Particle& child, const Params& prm, StepDraw& draw) {
    using namespace ccp;
    if ((p.flags & kSpecies) == 0) return Fate::kDied;  // all it held left at an electrode
    p.flags &= kSpecies | kReplicaBits;                 // the last step's marks were counted
    p.work_e = p.work_i = 0;
    const bool ionized = (p.flags & kElectron) != 0 && move_electron(p, child, prm, draw);
    if ((p.flags & kIon) != 0) move_ion(p, prm, draw);
    if (ionized) return Fate::kSpawned;
    if ((p.flags & kSpecies) == kSpecies) {  // a pair gives its electron a record of its own
      child = Particle{};
      child.flags = kElectron | (p.flags & (kElectronAbove | kReplicaBits));
      child.xe = p.xe;
      child.vxe = p.vxe;
      child.vye = p.vye;
      child.vze = p.vze;
      child.work_e = p.work_e;
      p.flags &= ~(kElectron | kElectronAbove);
      p.xe = p.vxe = p.vye = p.vze = 0;
      p.work_e = 0;
      return Fate::kSpawned;
    }
    return Fate::kAlive;
  }

  SB_HD static bool simulates_children(const Params&) { return true; }
};

}  // namespace sb
