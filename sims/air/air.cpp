#include "sims/air/air.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <set>

#include "core/data_file.hpp"
#include "core/density_image.hpp"
#include "core/errors.hpp"
#include "ranks/reduce.hpp"
#include "sims/air/constants.hpp"
#include "sims/air/lxcat.hpp"
#include "sims/air/phase_errors.hpp"
#include "sims/air/space_charge.hpp"

namespace sb {
namespace air {

const DeclaredParameter& gas() {
  static const DeclaredParameter p = text_parameter(
      "gas", "--gas",
      "air: gas mixture SPECIES:FRACTION,... of species in the cross-section file, fractions "
      "summing to 1 (default N2:0.8,O2:0.2)",
      "gas mixture", "SPECIES:FRACTION,... (e.g. N2:0.8,O2:0.2)", std::string("N2:0.8,O2:0.2"));
  return p;
}

const DeclaredParameter& pressure() {
  static const DeclaredParameter p =
      real_parameter("pressure", "--pressure", "air: gas pressure, bar (default 1)",
                     "pressure (bar)", 1e-9, 1e6, 1.0);
  return p;
}

const DeclaredParameter& temperature() {
  static const DeclaredParameter p =
      real_parameter("temperature", "--temperature", "air: gas temperature, K (default 300)",
                     "gas temperature (K)", 1e-3, 1e6, 300.0);
  return p;
}

const DeclaredParameter& electric_field() {
  static const DeclaredParameter p =
      renamed(real_parameter("electric_field", "--electric-field",
                             "air: electric field, V/m (or --reduced-field)",
                             "electric field (V/m)", 0, 1e12, std::nullopt),
              "field");
  return p;
}

const DeclaredParameter& reduced_field() {
  static const DeclaredParameter p = real_parameter(
      "reduced_field", "--reduced-field",
      "air: reduced electric field E/N, Td (1 Td = 1e-21 V m^2; or --electric-field)",
      "reduced field E/N (Td)", 0, 1e6, std::nullopt);
  return p;
}

const DeclaredParameter& magnetic_field() {
  static const DeclaredParameter p =
      real_parameter("magnetic_field", "--magnetic-field", "air: magnetic field, T (default 0)",
                     "magnetic field (T)", 0, 1e4, 0.0);
  return p;
}

const DeclaredParameter& field_angle() {
  static const DeclaredParameter p = real_parameter(
      "field_angle", "--field-angle", "air: angle between E and B, degrees (default 0)",
      "angle between E and B (degrees)", 0, 180, 0.0);
  return p;
}

const DeclaredParameter& thermal_gas() {
  static const DeclaredParameter p = switch_parameter(
      "thermal_gas", "--thermal-gas",
      "air: molecules move with the Maxwellian of --temperature (default: at rest)", "thermal gas");
  return p;
}

const DeclaredParameter& cross_section() {
  static const DeclaredParameter p = renamed(
      text_parameter("cross_section", "--cross-section",
                     "air: LXCat cross-section file (default data/lxcat-siglo.txt: N2, O2, Ar)",
                     "LXCat cross-section file", "a file name", std::nullopt),
      "cross_sections");
  return p;
}

const DeclaredParameter& phases() {
  static const DeclaredParameter p =
      whole_parameter("phases", "--phases", "air: phases (default 10), each of --phase-time",
                      "phases", 1, 100000, 10);
  return p;
}

const DeclaredParameter& phase_time() {
  static const DeclaredParameter p = real_parameter(
      "phase_time", "--phase-time", "air: length of a phase, seconds (default 1e-10)",
      "phase length (s)", 1e-18, 1, 1e-10);
  return p;
}

const DeclaredParameter& extrapolate() {
  static const DeclaredParameter p = choice_parameter(
      "extrapolate", "--extrapolate",
      "air: above the table's top energy: error (default; the run fails), constant (the top's "
      "collision frequencies) or zero (no collisions)",
      "above the table's top", {"error", "constant", "zero"}, "error");
  return p;
}

const DeclaredParameter& max_energy() {
  static const DeclaredParameter p = real_parameter(
      "max_energy", "--max-energy",
      "air: top of the collision table, eV (default: the smallest top of the gases' elastic "
      "cross sections)",
      "collision table top (eV)", 1e-3, 1e7, std::nullopt);
  return p;
}

const DeclaredParameter& init_radius() {
  static const DeclaredParameter p = recorded_when_given(real_parameter(
      "init_radius", "--init-radius",
      "air: the initial electrons are uniform in a ball of this radius about the origin, metres "
      "(default 0: all at the origin)",
      "initial ball radius (m)", 0, 1, 0.0));
  return p;
}

const DeclaredParameter& ionization_sharing() {
  static const DeclaredParameter p = recorded_when_given(choice_parameter(
      "ionization_sharing", "--ionization-sharing",
      "air: the energy left after an ionization's threshold: equal (default; half to each "
      "electron) or uniform (the new electron's fraction uniform on [0, 1])",
      "ionization energy sharing", {"equal", "uniform"}, "equal"));
  return p;
}

const DeclaredParameter& three_body_density() {
  static const DeclaredParameter p = recorded_when_given(choice_parameter(
      "three_body_density", "--three-body-density",
      "air: the density a TIMES_N (three-body) cross section is multiplied by: total (default; the "
      "gas's) or partial (its species')",
      "three-body attachment density", {"total", "partial"}, "total"));
  return p;
}

std::string first_default_file(const std::vector<std::string>& candidates) {
  std::error_code error;
  for (const std::string& p : candidates) {
    if (std::filesystem::is_regular_file(p, error))
      return std::filesystem::path(p).lexically_normal().string();
  }
  throw UsageError(fmt::format("{}: the default cross sections are in none of {}; give {} FILE",
                               cross_section().flag, fmt::join(candidates, ", "),
                               cross_section().flag));
}

}  // namespace air

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

// data/lxcat-siglo.txt in the source tree the binary was built from, else the build's or the
// install's (core/data_file.hpp).
std::string default_cross_sections() {
  return air::first_default_file(data_candidates(kDefaultFile));
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
  const bool absolute = air::electric_field().given(c), reduced = air::reduced_field().given(c);
  if (absolute && reduced) {
    throw UsageError(
        "--electric-field: give either --electric-field V/m or --reduced-field Td, not both");
  }
  if (!absolute && !reduced) {
    throw UsageError("--reduced-field: required for sim air (or --electric-field V/m)");
  }
  return absolute ? air::electric_field().real(c)
                  : air::reduced_field().real(c) * air::kTownsend * density;
}

uint32_t phases_of(const RunConfig& c) {
  return static_cast<uint32_t>(air::phases().whole(c));
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

// The phase's counts over every rank's electrons (docs/design.md §10); `sums`' fixed-point sums
// summed over the ranks in place.
struct RankTotals {
  uint64_t electrons, elastic, excitations, above_table, short_of_end, attached;
  double top_energy, most_short;  // the most over the ranks
};

RankTotals add_over_ranks(air::PhaseSums& sums) {
  ranks::Communicator& comm = ranks::world();
  std::vector<Int128> fixed;
  sums.each_fixed([&](FixedSum& sum) { fixed.push_back(sum.bits); });
  ranks::sum(comm, fixed.data(), fixed.size());
  size_t next = 0;
  sums.each_fixed([&](FixedSum& sum) { sum.bits = fixed[next++]; });
  std::vector<uint64_t> counts = {sums.electrons,   sums.elastic,      sums.excitations,
                                  sums.above_table, sums.short_of_end, sums.attached};
  comm.sum(counts);
  double lowest[2] = {0, 0}, worst[2] = {sums.top_energy, sums.most_short};
  ranks::bounds(comm, lowest, worst, 2);
  return {counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], worst[0], worst[1]};
}

// RunError for an electron that left the table (--extrapolate error) or used every flight of
// phase `phase`, which ends at `end` s.
void refuse_lost_electrons(const RankTotals& n, const air::Setup& s, uint32_t phase, double end) {
  if (n.above_table > 0) {
    throw RunError(fmt::format(
        "{} electron(s) reached up to {:.6g} eV in phase {}, above the top of the cross sections "
        "({} eV, {}); raise --max-energy or give --extrapolate constant or zero",
        n.above_table, n.top_energy, phase, s.table().top, s.path()));
  }
  if (n.short_of_end > 0) {
    throw RunError(fmt::format(
        "{} electron(s) used all {} flights of phase {} and stopped up to {:.6g} s before its end "
        "{:.6g} s: more flights than the 12-sigma Poisson bound allows",
        n.short_of_end, s.phases().steps, phase, n.most_short, end));
  }
}

}  // namespace

air::Setup::Setup(const RunConfig& c)
    : path_(air::cross_section().given(c) ? air::cross_section().text(c)
                                          : default_cross_sections()),
      phase_time_(air::phase_time().real(c)),
      phases_(phases_of(c)),
      extrapolate_(extrapolate_of(air::extrapolate().text(c))),
      thermal_(air::thermal_gas().on(c)),
      init_radius_(air::init_radius().real(c)),
      sharing_(air::ionization_sharing().text(c) == "uniform" ? air::Sharing::kUniform
                                                              : air::Sharing::kEqual) {
  const double temperature = air::temperature().real(c);
  density_ = air::pressure().real(c) * air::kBar / (air::kBoltzmann * temperature);
  fields_ =
      fields_of(field_of(c, density_), air::magnetic_field().real(c), air::field_angle().real(c));
  const std::string gas = air::gas().text(c);
  const double max_energy = air::max_energy().given(c) ? air::max_energy().real(c) : 0.0;
  const bool partial = air::three_body_density().text(c) == "partial";
  const air::TableSpec spec{path_, air::parse_gas(gas), density_, temperature, max_energy, partial};
  table_ = air::build_table(air::read_lxcat(path_), spec);
  if (!(table_.nu_max > 0)) {
    throw UsageError(
        fmt::format("--gas: {} gives no collisions up to {} eV in {}", gas, table_.top, path_));
  }
  steps_per_phase_ = steps_per_phase(table_.nu_max, phase_time_, phases_);
}

air::Params air::Setup::params() const {
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
          thermal_,
          init_radius_,
          sharing_};
}

Observables air::HostState::observe(PhaseSums sums, PhaseWindow w, PhaseEvents events) {
  const Setup& s = *setup_;
  const double end = air::phase_end_time(s.params(), w.start);
  const uint32_t phase = w.start / s.phases().steps;
  if (phase == 0) {
    note_effective(s.path(), s.table());
    // The initial ball's spreads (a uniform ball of radius R: R^2 / 5 along each axis).
    const double r2 = s.params().init_radius * s.params().init_radius;
    spread_z_ = r2 / 5;
    spread_r_ = 2 * r2 / 5;
  }
  // Every rank's electrons, each rank taking part before any throws, so that none waits for a rank
  // that did; every rank then throws the same error.
  const RankTotals counts = add_over_ranks(sums);
  refuse_lost_electrons(counts, s, phase, end);
  const uint64_t elastic = counts.elastic, excitations = counts.excitations;
  const double n_end = static_cast<double>(counts.electrons);
  // The particles at the phase's start include the last phase's attached electrons, which die
  // at its first step (sims/air/air.hpp): the only particles that die.
  const double n_start = static_cast<double>(events.start - events.removed);
  const double t = s.params().phase_time;
  const double density = s.density();
  // Means over the electrons alive at the phase's end (NaN without any).
  const auto mean = [&](const FixedSum& sum) { return n_end > 0 ? sum.value() / n_end : NAN; };
  const double mean_z = mean(sums.z), mean_x = mean(sums.x), mean_y = mean(sums.y);
  const double spread_z = mean(sums.zz) - mean_z * mean_z;
  const double spread_r = mean(sums.rr) - mean_x * mean_x - mean_y * mean_y;
  // Bulk: the centre's advance and the spreads' growth over the phase (docs/physics.md).
  const double bulk = (mean_z - mean_z_) / t;
  const double bulk_dl = (spread_z - spread_z_) / (2 * t);
  const double bulk_dt = (spread_r - spread_r_) / (4 * t);
  // Flux: the paths' integrals over the electrons' time in the phase. The centre's part, the
  // integral of c(t) times the sum of v, takes c(t) along the line between the phase's ends at
  // the electrons' mean time (exact where no electron is born or dies: docs/physics.md).
  const double path_time = sums.path_time.value();  // phase lengths
  const double electron_time = t * path_time;
  const auto per_time = [&](double integral) {
    return path_time > 0 ? integral / electron_time : NAN;
  };
  const double mean_time = path_time > 0 ? sums.path_time_time.value() / path_time : NAN;
  const auto centre = [&](double last, double now) { return last + (now - last) * mean_time; };
  const double path_x = sums.path_x.value(), path_y = sums.path_y.value();
  const double path_z = sums.path_z.value();
  const double flux = per_time(path_z);
  const double flux_dl = per_time(sums.path_zz.value() - centre(mean_z_, mean_z) * path_z);
  const double flux_dt = 0.5 * per_time(sums.path_rr.value() - centre(mean_x_, mean_x) * path_x -
                                        centre(mean_y_, mean_y) * path_y);
  const double growth = n_start > 0 && n_end > 0 ? std::log(n_end / n_start) : NAN;
  const double ionizations = static_cast<double>(events.spawned);
  const double attachments = static_cast<double>(counts.attached);
  const double events_n = ionizations + attachments;
  const double ionization_rate = ionizations / electron_time;
  const double attachment_rate = attachments / electron_time;
  // One standard error of a mean over the electrons (their spread over the square root of their
  // number), of the flux drift as a ratio of the paths' advances to their times (as independent
  // paths), and of a rate from its count of events (Poisson); NaN where there is none.
  const auto spread_error = [&](double mean_square, double m) {
    return n_end > 1 ? std::sqrt(std::max(0.0, mean_square - m * m) / n_end) : NAN;
  };
  const double ratio = 1e6 * flux * t;  // um per phase length
  const auto poisson_error = [](double rate, double count) {
    return count > 0 ? rate / std::sqrt(count) : NAN;
  };
  const double mean_energy = mean(sums.energy);
  const double advance_z =  // m^2
      1e-12 * std::max(0.0, sums.path_z2.value() - 2 * ratio * sums.path_zt.value() +
                                ratio * ratio * sums.path_t2.value());
  const PhaseErrors errors =
      phase_errors({t, n_start, n_end, events_n, 0.5 * (spread_z + spread_z_),
                    0.5 * (spread_r + spread_r_), advance_z, path_time, sums.path_t2.value(),
                    mean_x - mean_x_, mean_y - mean_y_, mean_z - mean_z_, flux * t, flux_dt});
  const double alpha = ionization_rate / (bulk * density), eta = attachment_rate / (bulk * density);
  const auto over_drift_error = [&](double value, double count) {
    return rate_over_drift_error(value, count, events_n, bulk, flux, errors.bulk_drift);
  };
  if (n_end > 0) {
    mean_x_ = mean_x;
    mean_y_ = mean_y;
    mean_z_ = mean_z;
    spread_z_ = spread_z;
    spread_r_ = spread_r;
  }
  return {
      {"electrons", n_end},
      {"mean_energy_eV", mean_energy},
      {"flux_drift_m_per_s", flux},
      {"bulk_drift_m_per_s", bulk},
      {"effective_ionization_frequency_per_s", growth / t},
      {"ionizations", ionizations},
      {"attachments", attachments},
      {"elastic_collisions", static_cast<double>(elastic)},
      {"excitations", static_cast<double>(excitations)},
      {"alpha_N_m2", alpha},
      {"eta_N_m2", eta},
      {"flux_ND_L_per_m_s", density * flux_dl},
      {"flux_ND_T_per_m_s", density * flux_dt},
      {"bulk_ND_L_per_m_s", density * bulk_dl},
      {"bulk_ND_T_per_m_s", density * bulk_dt},
      {"ionization_rate_coefficient_m3_per_s", ionization_rate / density},
      {"attachment_rate_coefficient_m3_per_s", attachment_rate / density},
      {"real_collisions", static_cast<double>(elastic + excitations) + ionizations + attachments},
      {"mean_energy_eV_error", spread_error(mean(sums.energy2), mean_energy)},
      {"flux_drift_m_per_s_error", path_time > 0 ? std::sqrt(advance_z) / electron_time : NAN},
      {"bulk_drift_m_per_s_error", errors.bulk_drift},
      {"effective_ionization_frequency_per_s_error", errors.growth},
      {"alpha_N_m2_error", over_drift_error(alpha, ionizations)},
      {"eta_N_m2_error", over_drift_error(eta, attachments)},
      {"flux_ND_L_per_m_s_error", density * errors.flux_dl},
      {"flux_ND_T_per_m_s_error", density * errors.flux_dt},
      {"bulk_ND_L_per_m_s_error", density * errors.bulk_dl},
      {"bulk_ND_T_per_m_s_error", density * errors.bulk_dt},
      {"ionization_rate_coefficient_m3_per_s_error",
       poisson_error(ionization_rate / density, ionizations)},
      {"attachment_rate_coefficient_m3_per_s_error",
       poisson_error(attachment_rate / density, attachments)}};
}

template <class Particle>
Image air::picture(const std::vector<Particle>& ps) {
  // The electrons, not the attached ones kept to the phase's end.
  const auto electron = [](const Particle& p) { return !p.attached; };
  // Square cells, 128 across the swarm's longer extent in x or z, and a margin of 4.
  constexpr int kCells = 128, kMargin = 4;
  const auto first = std::find_if(ps.begin(), ps.end(), electron);
  double lo_x = first == ps.end() ? 0 : first->x, hi_x = lo_x;
  double lo_z = first == ps.end() ? 0 : first->z, hi_z = lo_z;
  for (const Particle& p : ps) {
    if (!electron(p)) continue;
    lo_x = std::min<double>(lo_x, p.x);
    hi_x = std::max<double>(hi_x, p.x);
    lo_z = std::min<double>(lo_z, p.z);
    hi_z = std::max<double>(hi_z, p.z);
  }
  const double cell = std::max({hi_x - lo_x, hi_z - lo_z, 1e-30}) / kCells;
  const auto index = [cell](double v, double lo) { return static_cast<int>((v - lo) / cell); };
  const int wx = index(hi_x, lo_x) + 1 + 2 * kMargin, wz = index(hi_z, lo_z) + 1 + 2 * kMargin;
  std::vector<uint32_t> counts(static_cast<size_t>(wx) * wz, 0);
  for (const Particle& p : ps) {
    if (electron(p))
      ++counts[static_cast<size_t>(index(p.z, lo_z) + kMargin) * wx + index(p.x, lo_x) + kMargin];
  }
  return density_image(counts, wx, wz, cell);
}

template Image air::picture(const std::vector<air::ParticleIn<precision::Double>>&);
template Image air::picture(const std::vector<air::ParticleIn<precision::Mixed>>&);
template Image air::picture(const std::vector<air::ParticleIn<precision::Single>>&);

}  // namespace sb
