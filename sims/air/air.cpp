#include "sims/air/air.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <set>

#include "core/density_image.hpp"
#include "core/errors.hpp"
#include "sims/air/constants.hpp"
#include "sims/air/lxcat.hpp"

namespace sb {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultFile = "data/lxcat-siglo.txt";

// Says once per process and file which species' EFFECTIVE cross section stands for ELASTIC (less
// that species' inelastic ones, build_table). Said when a run observes its first phase, not when
// the table is built: checking a job builds it too, and bad input gets one line only.
void note_effective(const std::string& path, const air::CollisionTable& table) {
  static std::mutex mutex;
  static std::set<std::string> said;
  const std::lock_guard<std::mutex> lock(mutex);
  for (const std::string& name : table.names) {
    const std::string species = name.substr(0, name.find(' '));
    if (name != species + " ELASTIC (effective)" || !said.insert(path + '\n' + species).second)
      continue;
    const auto inelastic =
        std::count_if(table.names.begin(), table.names.end(), [&](const std::string& n) {
          return n.rfind(species + " ", 0) == 0 && n.find(" ELASTIC") == std::string::npos;
        });
    fmt::print(stderr,
               "note: {}: {}'s EFFECTIVE cross section is used as ELASTIC less its {} inelastic "
               "cross sections (at least 0)\n",
               path, species, inelastic);
  }
}

// data/lxcat-siglo.txt in the source tree the binary was built from, else beside the
// executable's build directory (build/bin/..) or install prefix (bin/..).
std::string default_cross_sections() {
  std::vector<fs::path> candidates = {fs::path(SB_SOURCE_DIR) / kDefaultFile};
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    candidates.push_back(exe.parent_path() / ".." / ".." / kDefaultFile);
    candidates.push_back(exe.parent_path() / ".." / kDefaultFile);
  }
  for (const fs::path& p : candidates) {
    if (fs::is_regular_file(p, error)) return p.lexically_normal().string();
  }
  throw UsageError(
      fmt::format("--cross-sections: the default {} is neither in the sources ({}) nor beside the "
                  "executable; give --cross-sections FILE",
                  kDefaultFile, SB_SOURCE_DIR));
}

air::Extrapolate extrapolate_of(const std::string& mode) {
  return mode == "constant" ? air::Extrapolate::kConstant
         : mode == "zero"   ? air::Extrapolate::kZero
                            : air::Extrapolate::kError;
}

// E along -z, so that electrons drift towards +z; B in the x-z plane at `angle_deg` from E.
air::Fields fields_of(double e_field, double b_field, double angle_deg) {
  constexpr double kQOverM = -air::kElementaryCharge / air::kElectronMass;
  const double angle = angle_deg * (3.14159265358979323846 / 180.0);
  const air::Vec3 e{0.0, 0.0, -e_field};
  const air::Vec3 b{b_field * std::sin(angle), 0.0, -b_field * std::cos(angle)};
  const double omega = std::fabs(kQOverM * b_field);
  return {kQOverM * e, kQOverM * b, b_field != 0.0, omega / air::kMaxSubstepAngle};
}

double field_of(const RunConfig& c, double density) {
  if (c.field >= 0 && c.reduced_field >= 0) {
    throw UsageError("--field: give either --field V/m or --reduced-field Td, not both");
  }
  if (c.field < 0 && c.reduced_field < 0) {
    throw UsageError("--reduced-field: required for sim air (or --field V/m)");
  }
  return c.field >= 0 ? c.field : c.reduced_field * air::kTownsend * density;
}

// S: the flights one lineage takes in a phase stay below it but for a Poisson tail of 12
// standard deviations (docs/determinism.md, "Variable time steps").
uint32_t steps_per_phase(double nu_max, double phase_time, uint32_t phases) {
  const double lambda = nu_max * phase_time;
  const double s = std::ceil(lambda + 12.0 * std::sqrt(lambda) + 40.0);
  if (s * phases >= 2147483648.0) {
    throw UsageError(fmt::format(
        "--phase-time: {} phases of {} s take up to {:.3g} flights each (nu_max {:.3g}/s), more "
        "than steps can count (2^31); accepted: fewer phases, shorter phases, or a lower "
        "--max-energy",
        phases, phase_time, s, nu_max));
  }
  return static_cast<uint32_t>(s);
}

// An exact, order-independent sum of doubles: each rounded to a multiple of 2^-64 and added as
// a 128-bit integer, so that every engine's particle order gives the same observables.
class ExactSum {
 public:
  void add(double x) { sum_ += static_cast<Wide>(std::ldexp(x, 64)); }
  double value() const { return std::ldexp(static_cast<double>(sum_), -64); }

 private:
  __extension__ typedef __int128 Wide;
  Wide sum_ = 0;
};

}  // namespace

AirSim::HostState::HostState(const RunConfig& c)
    : path_(c.cross_sections.empty() ? default_cross_sections() : c.cross_sections),
      phase_time_(c.phase_time),
      extrapolate_(extrapolate_of(c.extrapolate)),
      thermal_(c.thermal_gas) {
  density_ = c.pressure * air::kBar / (air::kBoltzmann * c.temperature);
  fields_ = fields_of(field_of(c, density_), c.magnetic_field, c.field_angle);
  const air::TableSpec spec{path_, air::parse_gas(c.gas), density_, c.temperature, c.max_energy};
  table_ = air::build_table(air::read_lxcat(path_), spec);
  if (!(table_.nu_max > 0)) {
    throw UsageError(
        fmt::format("--gas: {} gives no collisions up to {} eV in {}", c.gas, table_.top, path_));
  }
  steps_per_phase_ = steps_per_phase(table_.nu_max, phase_time_, c.phases);
}

AirSim::Params AirSim::HostState::params() const {
  return {table_.cumulative.data(),
          table_.processes.data(),
          static_cast<uint32_t>(table_.processes.size()),
          table_.rows,
          table_.inv_step,
          table_.nu_max,
          1.0 / table_.nu_max,
          fields_,
          steps_per_phase_,
          extrapolate_,
          phase_time_,
          thermal_};
}

PhasePlan AirSim::phases(const RunConfig& c) {
  return {c.phases, HostState(c).params().steps_per_phase};
}

Observables AirSim::HostState::observe(const std::vector<Particle>& alive, PhaseWindow w,
                                       PhaseEvents events) {
  const double end = air::phase_end_time(params(), w.start);
  const uint32_t phase = w.start / steps_per_phase_;
  if (phase == 0) note_effective(path_, table_);
  ExactSum energy, vz, z;
  uint64_t elastic = 0, excitations = 0;
  for (const Particle& p : alive) {
    const air::Vec3 u{p.ux, p.uy, p.uz};
    if (p.parked == air::kAboveTable) {
      throw RunError(fmt::format(
          "an electron reached {:.6g} eV in phase {}, above the top of the cross sections "
          "({} eV, {}); raise --max-energy or give --extrapolate constant or zero",
          air::energy_ev(u), phase, table_.top, path_));
    }
    if (p.clock != end) {
      throw RunError(fmt::format(
          "an electron used all {} flights of phase {} and stopped at {:.6g} s before its end "
          "{:.6g} s: more flights than the 12-sigma Poisson bound allows",
          steps_per_phase_, phase, p.clock, end));
    }
    energy.add(air::energy_ev(u));
    vz.add(p.uz / air::lorentz_factor(u));
    z.add(p.z);
    elastic += p.elastic;
    excitations += p.excitations;
  }
  const double n_end = static_cast<double>(alive.size());
  const double n_start = static_cast<double>(events.start);
  const double t = phase_time_;
  const double mean_z = n_end > 0 ? z.value() / n_end : NAN;
  const double bulk = (mean_z - mean_z_) / t;
  if (n_end > 0) mean_z_ = mean_z;
  const double growth = n_start > 0 && n_end > 0 ? std::log(n_end / n_start) : NAN;
  // The electrons' time in the phase, for exponential growth between the two counts.
  const double electron_time = n_start == n_end        ? t * n_start
                               : std::isfinite(growth) ? t * (n_end - n_start) / growth
                                                       : t * (n_start + n_end) / 2;
  const double ionization_rate = static_cast<double>(events.spawned) / electron_time;
  const double attachment_rate = static_cast<double>(events.removed) / electron_time;
  return {{"electrons", n_end},
          {"mean_energy_eV", n_end > 0 ? energy.value() / n_end : NAN},
          {"flux_drift_m_per_s", n_end > 0 ? vz.value() / n_end : NAN},
          {"bulk_drift_m_per_s", bulk},
          {"effective_ionization_frequency_per_s", growth / t},
          {"ionizations", static_cast<double>(events.spawned)},
          {"attachments", static_cast<double>(events.removed)},
          {"elastic_collisions", static_cast<double>(elastic)},
          {"excitations", static_cast<double>(excitations)},
          {"alpha_N_m2", ionization_rate / (bulk * density_)},
          {"eta_N_m2", attachment_rate / (bulk * density_)}};
}

Image AirSim::picture(const std::vector<Particle>& ps) {
  // Square cells, 128 across the swarm's longer extent in x or z, and a margin of 4.
  constexpr int kCells = 128, kMargin = 4;
  double lo_x = ps.empty() ? 0 : ps[0].x, hi_x = lo_x, lo_z = ps.empty() ? 0 : ps[0].z,
         hi_z = lo_z;
  for (const Particle& p : ps) {
    lo_x = std::min(lo_x, p.x);
    hi_x = std::max(hi_x, p.x);
    lo_z = std::min(lo_z, p.z);
    hi_z = std::max(hi_z, p.z);
  }
  const double cell = std::max({hi_x - lo_x, hi_z - lo_z, 1e-30}) / kCells;
  const auto index = [cell](double v, double lo) { return static_cast<int>((v - lo) / cell); };
  const int wx = index(hi_x, lo_x) + 1 + 2 * kMargin, wz = index(hi_z, lo_z) + 1 + 2 * kMargin;
  std::vector<uint32_t> counts(static_cast<size_t>(wx) * wz, 0);
  for (const Particle& p : ps)
    ++counts[static_cast<size_t>(index(p.z, lo_z) + kMargin) * wx + index(p.x, lo_x) + kMargin];
  return density_image(counts, wx, wz);
}

}  // namespace sb
