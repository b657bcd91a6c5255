#include "sims/ccp/ccp.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "core/data_file.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "ranks/reduce.hpp"

namespace sb {
namespace ccp {

const DeclaredParameter& case_number() {
  static const DeclaredParameter p =
      whole_parameter("case", "--case",
                      "ccp: the Turner et al. (2013) case, 1-4 (default 1), whose table gives "
                      "every ccp parameter not given",
                      "Turner case", 1, 4, 1);
  return p;
}

namespace {

const DeclaredParameter& gap() {
  static const DeclaredParameter p = real_parameter(
      "gap", "--gap", "ccp: electrode gap, m (default 0.067)", "gap (m)", 1e-6, 10, kGap);
  return p;
}
const DeclaredParameter& rf_frequency() {
  static const DeclaredParameter p =
      real_parameter("rf_frequency", "--rf-frequency", "ccp: RF frequency, Hz (default 13.56e6)",
                     "RF frequency (Hz)", 1, 1e12, kFrequency);
  return p;
}
const DeclaredParameter& rf_voltage() {
  static const DeclaredParameter p = real_parameter(
      "rf_voltage", "--rf-voltage", "ccp: RF voltage amplitude, V (default: the case's)",
      "RF voltage (V)", 0, 1e6, std::nullopt);
  return p;
}
const DeclaredParameter& gas_density() {
  static const DeclaredParameter p = real_parameter(
      "gas_density", "--gas-density", "ccp: helium density, m^-3 (default: the case's)",
      "gas density (m^-3)", 1e10, 1e30, std::nullopt);
  return p;
}
const DeclaredParameter& gas_temperature() {
  static const DeclaredParameter p = real_parameter(
      "gas_temperature", "--gas-temperature", "ccp: helium temperature, K (default 300)",
      "gas temperature (K)", 1e-3, 1e5, kGasTemperature);
  return p;
}
const DeclaredParameter& cells() {
  static const DeclaredParameter p =
      whole_parameter("cells", "--cells", "ccp: mesh cells, nodes one more (default: the case's)",
                      "cells", 4, 1u << 20, std::nullopt);
  return p;
}
const DeclaredParameter& steps_per_period() {
  static const DeclaredParameter p =
      whole_parameter("steps_per_period", "--steps-per-period",
                      "ccp: time steps per RF period (default: the case's)", "steps per RF period",
                      1, 1u << 20, std::nullopt);
  return p;
}
const DeclaredParameter& periods() {
  static const DeclaredParameter p =
      whole_parameter("periods", "--periods", "ccp: RF periods simulated (default: the case's)",
                      "RF periods", 1, kMaxSteps, std::nullopt);
  return p;
}
const DeclaredParameter& average_periods() {
  static const DeclaredParameter p =
      whole_parameter("average_periods", "--average-periods",
                      "ccp: the last RF periods averaged, at most --periods (default 32)",
                      "periods averaged", 1, kMaxSteps, kAveragePeriods);
  return p;
}
const DeclaredParameter& plasma_density() {
  static const DeclaredParameter p =
      real_parameter("plasma_density", "--plasma-density",
                     "ccp: initial density of each species, m^-3 (default: the case's)",
                     "initial plasma density (m^-3)", 1, 1e30, std::nullopt);
  return p;
}
const DeclaredParameter& electron_temperature() {
  static const DeclaredParameter p =
      real_parameter("electron_temperature", "--electron-temperature",
                     "ccp: initial electron temperature, K (default 30000)",
                     "initial electron temperature (K)", 1e-3, 1e9, kElectronTemperature);
  return p;
}

const DeclaredParameter& replicas() {
  static const DeclaredParameter p = whole_parameter(
      "replicas", "--replicas",
      "ccp: independent discharges in one run, each with its own field and its share of "
      "--init-n (default 1); the summary gives their mean and its error",
      "replicas", 1, 65536, 1);
  return p;
}

double real_or(const DeclaredParameter& p, const RunConfig& c, double fallback) {
  return p.given(c) ? p.real(c) : fallback;
}
uint64_t whole_or(const DeclaredParameter& p, const RunConfig& c, uint64_t fallback) {
  return p.given(c) ? p.whole(c) : fallback;
}

// A table file of `energy_eV;sigma_m2` lines, energies ascending.
struct XsFile {
  std::vector<double> energy, sigma;
};

XsFile read_table(const std::string& path) {
  std::istringstream in(read_input_file(path, "ccp cross-section file", 1 << 20));
  XsFile t;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    const size_t semi = line.find(';');
    double e = NAN, s = NAN;
    try {
      size_t used = 0;
      if (semi != std::string::npos) {
        e = std::stod(line.substr(0, semi), &used);
        s = std::stod(line.substr(semi + 1), &used);
      }
    } catch (const std::exception&) {
      e = NAN;
    }
    if (!std::isfinite(e) || !std::isfinite(s) || e < 0 || s < 0 ||
        (!t.energy.empty() && e <= t.energy.back())) {
      throw UsageError(
          fmt::format("{}:{}: '{}' is not a cross-section row; accepted: "
                      "energy_eV;sigma_m2, both at least 0, energies ascending",
                      path, number, line));
    }
    t.energy.push_back(e);
    t.sigma.push_back(s);
  }
  if (t.energy.size() < 2) {
    throw UsageError(fmt::format("{}: {} row(s); accepted: at least 2 energy_eV;sigma_m2 rows",
                                 path, t.energy.size()));
  }
  return t;
}

// A file's cross section at eps: linear between its rows, its last row's above the top, zero
// below its first energy (a threshold).
double sigma_at(const XsFile& t, double eps) {
  if (eps >= t.energy.back()) return t.sigma.back();
  if (eps < t.energy.front()) return 0;
  const size_t hi = std::upper_bound(t.energy.begin(), t.energy.end(), eps) - t.energy.begin();
  const size_t lo = hi - 1;
  const double f = (eps - t.energy[lo]) / (t.energy[hi] - t.energy[lo]);
  return t.sigma[lo] + (t.sigma[hi] - t.sigma[lo]) * f;
}

// The files on one grid, the union of their energies: linear between those as each file is.
void merge_tables(const std::vector<XsFile>& files, std::vector<double>& energy,
                  std::vector<double>& sigma) {
  for (const XsFile& f : files)
    energy.insert(energy.end(), f.energy.begin(), f.energy.end());
  std::sort(energy.begin(), energy.end());
  energy.erase(std::unique(energy.begin(), energy.end()), energy.end());
  for (double e : energy) {
    for (const XsFile& f : files)
      sigma.push_back(sigma_at(f, e));
  }
}

// The most collision frequency per unit gas density over the table: on each segment, the larger
// of its ends' total cross sections times the speed at its top (`speed_of` an energy). Above the
// table, where the frequency keeps growing with the speed, a step checks against it.
template <class SpeedOf>
double majorant(const std::vector<double>& energy, const std::vector<double>& sigma, size_t columns,
                SpeedOf speed_of) {
  double most = 0;
  for (size_t r = 0; r + 1 < energy.size(); ++r) {
    double a = 0, b = 0;
    for (size_t k = 0; k < columns; ++k) {
      a += sigma[r * columns + k];
      b += sigma[(r + 1) * columns + k];
    }
    most = std::max(most, std::max(a, b) * speed_of(energy[r + 1]));
  }
  return most;
}

uint64_t chance_of(double majorant, double dt) {
  return percent_threshold(100.0 * -std::expm1(-majorant * dt));
}

std::string turner_dir() {
  for (const std::string& p : data_candidates("data/turner")) {
    std::error_code error;
    if (std::filesystem::is_directory(p, error))
      return std::filesystem::path(p).lexically_normal().string();
  }
  throw UsageError(fmt::format("ccp: its cross sections (data/turner) are in none of {}",
                               fmt::join(data_candidates("data/turner"), ", ")));
}

// Columns 5 and 7 of a reference file (the ion density's mean and population standard
// deviation), one row per node.
void read_reference(const std::string& path, uint32_t nodes, std::vector<double>& mean,
                    std::vector<double>& sigma) {
  std::istringstream in(read_input_file(path, "ccp reference profile", 1 << 22));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    double v[7];
    int k = 0;
    while (k < 7 && row >> v[k])
      ++k;
    if (k < 7) continue;
    mean.push_back(v[4]);
    sigma.push_back(v[6]);
  }
  if (mean.size() != nodes) {
    throw UsageError(fmt::format("{}: {} rows of 7 numbers; accepted: {}, one per node", path,
                                 mean.size(), nodes));
  }
}

}  // namespace

std::string reference_file(uint32_t cells, double density) {
  for (int k = 0; k < 4; ++k) {
    if (kCases[k].cells == cells && kCases[k].gas_density == density)
      return fmt::format("case{}_data.dat", k + 1);
  }
  return "";
}

Setup::Setup(const RunConfig& c) {
  const CaseSpec& cs = kCases[case_number().whole(c) - 1];
  mesh_.cells = static_cast<uint32_t>(whole_or(cells(), c, cs.cells));
  mesh_.length = gap().real(c);
  mesh_.dx = mesh_.length / mesh_.cells;
  mesh_.inv_dx = mesh_.cells / mesh_.length;
  frequency_ = rf_frequency().real(c);
  voltage_ = real_or(rf_voltage(), c, cs.voltage);
  gas_density_ = real_or(gas_density(), c, cs.gas_density);
  gas_temperature_ = gas_temperature().real(c);
  steps_per_period_ =
      static_cast<uint32_t>(whole_or(ccp::steps_per_period(), c, cs.steps_per_period));
  const uint64_t period_count = whole_or(periods(), c, cs.periods);
  const uint64_t averaged = average_periods().whole(c);
  if (averaged > period_count) {
    throw UsageError(
        fmt::format("{}: {} exceeds the {} RF period(s) simulated; accepted: at most "
                    "{} (--periods)",
                    average_periods().flag, averaged, period_count, period_count));
  }
  if (period_count * steps_per_period_ > kMaxSteps) {
    throw UsageError(
        fmt::format("--periods {} x --steps-per-period {}: {} steps; accepted: at "
                    "most {} steps",
                    period_count, steps_per_period_, period_count * steps_per_period_, kMaxSteps));
  }
  if (c.init_n % 2 != 0) {
    throw UsageError(
        fmt::format("--init-n {}: ccp starts as many electrons as ions; accepted: "
                    "an even number",
                    c.init_n));
  }
  replicas_ = static_cast<uint32_t>(ccp::replicas().whole(c));
  if (c.init_n / 2 % replicas_ != 0) {
    throw UsageError(
        fmt::format("--replicas {}: --init-n {} does not give each replica as many "
                    "electrons and ions; accepted: a divisor of {} (--init-n / 2)",
                    replicas_, c.init_n, c.init_n / 2));
  }
  total_steps_ = static_cast<uint32_t>(period_count * steps_per_period_);
  average_from_ = static_cast<uint32_t>((period_count - averaged) * steps_per_period_);
  dt_ = 1.0 / (frequency_ * steps_per_period_);
  init_electrons_ = c.init_n / 2;
  const double n0 = real_or(plasma_density(), c, cs.plasma_density);
  const uint64_t per_replica = init_electrons_ / replicas_;
  weight_ = per_replica > 0 ? n0 * mesh_.length / static_cast<double>(per_replica) : 0;
  rhs_scale_ = kElementaryCharge * weight_ * mesh_.dx / (kWeightScale * kVacuumPermittivity);
  wall_scale_ = kElementaryCharge * weight_ / (kWeightScale * kVacuumPermittivity);
  electron_speed_ = std::sqrt(kBoltzmann * electron_temperature().real(c) / kElectronMass);

  const std::string dir = turner_dir();
  const auto file = [&](const char* name) { return read_table(dir + "/" + name); };
  merge_tables({file("Elastic_He.csv"), file("Excitation1_He.csv"), file("Excitation2_He.csv"),
                file("Ionization_He.csv")},
               e_energy_, e_sigma_);
  merge_tables({file("Isotropic_He.csv"), file("Backscattering_He.csv")}, i_energy_, i_sigma_);
  electron_majorant_ = gas_density_ * majorant(e_energy_, e_sigma_, 4, [](double eps) {
                         return std::sqrt(eps / kHalfElectronMassPerCharge);
                       });
  ion_majorant_ = gas_density_ * majorant(i_energy_, i_sigma_, 2, [](double eps) {
                    return std::sqrt(eps / kQuarterIonMassPerCharge);
                  });
  const std::string reference = reference_file(mesh_.cells, gas_density_);
  if (!reference.empty() && mesh_.length == kGap) {
    read_reference(dir + "/" + reference, mesh_.cells + 1, ref_mean_, ref_sigma_);
  }
}

Params Setup::params(const double* field) const {
  Params p{};
  p.mesh = mesh_;
  p.field = field;
  p.electron = {e_energy_.data(), e_sigma_.data(), static_cast<uint32_t>(e_energy_.size()), 4};
  p.ion = {i_energy_.data(), i_sigma_.data(), static_cast<uint32_t>(i_energy_.size()), 2};
  p.dt = dt_;
  p.electron_kick = -kElementaryCharge / kElectronMass * dt_;
  p.ion_kick = kElementaryCharge / kIonMass * dt_;
  p.gas_density = gas_density_;
  p.gas_speed = std::sqrt(kBoltzmann * gas_temperature_ / kIonMass);
  p.electron_majorant = electron_majorant_;
  p.ion_majorant = ion_majorant_;
  p.electron_chance = chance_of(electron_majorant_, dt_);
  p.ion_chance = chance_of(ion_majorant_, dt_);
  p.average_from = average_from_;
  const double mid = 0.5 * mesh_.length;
  p.mid_lo = mid - 0.5 * mesh_.dx;
  p.mid_hi = mid + 0.5 * mesh_.dx;
  p.init_electrons = init_electrons_;
  p.replica_electrons = std::max<uint64_t>(init_electrons_ / replicas_, 1);
  p.electron_spread = electron_speed_;
  return p;
}

double Setup::voltage_at(uint32_t step) const {
  return voltage_ * std::sin(2 * kPi * frequency_ * dt_ * static_cast<double>(step));
}

HostState::HostState(std::shared_ptr<const Setup> setup) : setup_(std::move(setup)) {
  const size_t nodes = setup_->nodes(), all = nodes * setup_->replicas();
  net_.assign(nodes, 0);
  scratch_.assign(nodes, 0);
  potential_.assign(nodes, 0);
  field_.assign(all, 0);
  window_.electrons.assign(all, 0);
  window_.ions.assign(all, 0);
}

Params HostState::params() const {
  return setup_->params(field_.data());
}

namespace {

void deposit(const Mesh& m, double x, int64_t* nodes) {
  double frac;
  const uint32_t j = cell_of(m, x, frac);
  const auto right = static_cast<int64_t>(right_weight(frac));
  nodes[j] += (int64_t{1} << 32) - right;
  nodes[j + 1] += right;
}

}  // namespace

void HostState::before_phase(std::vector<Particle>& ps, PhaseWindow w) {
  const Mesh& m = setup_->mesh();
  const size_t all = setup_->nodes() * setup_->replicas();
  std::vector<int64_t> both(2 * all, 0);  // electrons, then ions, each a mesh per replica
  for (const Particle& p : ps) {
    if (!is_alive(p.tag)) continue;
    const size_t mesh = size_t{replica_of(p.flags)} * setup_->nodes();
    if (p.flags & kElectron) deposit(m, p.xe, both.data() + mesh);
    if (p.flags & kIon) deposit(m, p.xi, both.data() + all + mesh);
  }
  ranks::sum(ranks::world(), both.data(), both.size());
  const double voltage = setup_->voltage_at(w.start);
  for (uint32_t r = 0; r < setup_->replicas(); ++r) {
    const size_t mesh = size_t{r} * setup_->nodes();
    for (size_t j = 0; j < setup_->nodes(); ++j)
      net_[j] = both[all + mesh + j] - both[mesh + j];
    solve_field(m, net_.data(), setup_->rhs_scale(), setup_->wall_scale(), voltage,
                scratch_.data(), potential_.data(),
                field_.data() + mesh);
  }
  if (setup_->in_window(w)) {
    for (size_t j = 0; j < all; ++j) {
      window_.electrons[j] += both[j];
      window_.ions[j] += both[all + j];
    }
    ++window_.steps;
  }
}

namespace {

// `sums` summed over every rank, in place.
void add_over_ranks(PhaseSums& sums) {
  ranks::Communicator& comm = ranks::world();
  std::vector<Int128> fixed;
  sums.each_fixed([&](FixedSum& s) { fixed.push_back(s.bits); });
  ranks::sum(comm, fixed.data(), fixed.size());
  size_t next = 0;
  sums.each_fixed([&](FixedSum& s) { s.bits = fixed[next++]; });
  std::vector<uint64_t> counts;
  sums.each_count([&](uint64_t& n) { counts.push_back(n); });
  comm.sum(counts);
  next = 0;
  sums.each_count([&](uint64_t& n) { n = counts[next++]; });
  double lowest[2] = {0, 0}, top[2] = {sums.top_electron, sums.top_ion};
  ranks::bounds(comm, lowest, top, 2);
  sums.top_electron = top[0];
  sums.top_ion = top[1];
}

}  // namespace

Observables HostState::observe(PhaseSums sums, PhaseWindow w, PhaseEvents) {
  add_over_ranks(sums);
  if (sums.electrons_above + sums.ions_above > 0) {
    const bool electron = sums.electrons_above > 0;
    throw RunError(fmt::format(
        "ccp: {} {}(s) at up to {:.6g} eV had a collision frequency above the majorant ({:.6g} "
        "s^-1, the cross sections' most) in step {}; the cross sections do not reach that energy",
        electron ? sums.electrons_above : sums.ions_above, electron ? "electron" : "ion",
        electron ? sums.top_electron : sums.top_ion,
        electron ? params().electron_majorant : params().ion_majorant, w.start));
  }
  period_ = period_ + sums;
  if (setup_->in_window(w)) {
    window_sums_ = window_sums_ + sums;
    ++window_steps_;
  }
  if (w.end % setup_->steps_per_period() != 0) return {};
  const PhaseSums p = period_;
  period_ = {};
  return {{"electrons", static_cast<double>(sums.electrons)},
          {"ions", static_cast<double>(sums.ions)},
          {"ionizations", static_cast<double>(p.ionizations)},
          {"electrons_lost_left", static_cast<double>(p.electron_left)},
          {"electrons_lost_right", static_cast<double>(p.electron_right)},
          {"ions_lost_left", static_cast<double>(p.ion_left)},
          {"ions_lost_right", static_cast<double>(p.ion_right)}};
}

namespace {

// The mean over the replicas at each node and its standard error (NaN from one replica).
void ensemble(const std::vector<std::vector<double>>& each, std::vector<double>& mean,
              std::vector<double>& error) {
  const size_t r = each.size(), nodes = each.front().size();
  mean.assign(nodes, 0);
  error.assign(nodes, NAN);
  for (size_t j = 0; j < nodes; ++j) {
    double sum = 0, sum2 = 0;
    for (const std::vector<double>& one : each)
      sum += one[j];
    mean[j] = sum / static_cast<double>(r);
    for (const std::vector<double>& one : each)
      sum2 += (one[j] - mean[j]) * (one[j] - mean[j]);
    if (r > 1) error[j] = std::sqrt(sum2 / static_cast<double>(r - 1) / static_cast<double>(r));
  }
}

}  // namespace

double Setup::x2(const std::vector<double>& ion_density) const {
  double sum = 0;
  for (size_t j = 0; j < ref_mean_.size(); ++j) {
    const double sd = ref_sigma_[j], d = ion_density[j] - ref_mean_[j];
    if (sd > 0) sum += d * d / (sd * sd);
  }
  return sum;
}

RunSummary HostState::summarize(const WindowDeposits& d) const {
  const Setup& s = *setup_;
  const Mesh& m = s.mesh();
  const size_t nodes = s.nodes(), replicas = s.replicas();
  const double steps = static_cast<double>(std::max<uint64_t>(d.steps, 1));
  std::vector<std::vector<double>> ne(replicas, std::vector<double>(nodes));
  std::vector<std::vector<double>> ni = ne;
  std::vector<double> x(nodes);
  for (size_t j = 0; j < nodes; ++j) {
    x[j] = static_cast<double>(j) * m.dx;
    const double volume = (j == 0 || j == m.cells) ? 0.5 * m.dx : m.dx;
    const double scale = s.weight() / (kWeightScale * volume * steps);
    for (size_t r = 0; r < replicas; ++r) {
      ne[r][j] = static_cast<double>(d.electrons[r * nodes + j]) * scale;
      ni[r][j] = static_cast<double>(d.ions[r * nodes + j]) * scale;
    }
  }
  std::vector<double> mean_e, error_e, mean_i, error_i;
  ensemble(ne, mean_e, error_e);
  ensemble(ni, mean_i, error_i);
  // The window's sums are over every replica: a replica's mean is a replica's share.
  const double time = static_cast<double>(window_steps_) * s.dt() * static_cast<double>(replicas);
  const auto per_time = [&](double v) { return time > 0 ? v / time : NAN; };
  const PhaseSums& w = window_sums_;
  const double charge = kElementaryCharge * s.weight();
  RunSummary out;
  out.values = {
      {"peak_ion_density", *std::max_element(mean_i.begin(), mean_i.end())},
      {"electron_temperature_mid_eV",
       w.mid_electrons > 0 ? 2.0 / 3.0 * w.mid_energy.value() / static_cast<double>(w.mid_electrons)
                           : NAN},
      {"ion_current_left_A_m2", per_time(charge * static_cast<double>(w.ion_left))},
      {"ion_current_right_A_m2", per_time(charge * static_cast<double>(w.ion_right))},
      {"electron_power_W_m2", per_time(charge * w.work_e.value())},
      {"ion_power_W_m2", per_time(charge * w.work_i.value())},
      {"steps_averaged", static_cast<double>(window_steps_)},
      {"replicas", static_cast<double>(replicas)}};
  out.profiles = {{"x", x}, {"electron_density", mean_e}, {"ion_density", mean_i}};
  if (replicas > 1) {
    out.profiles.push_back({"electron_density_error", error_e});
    out.profiles.push_back({"ion_density_error", error_i});
  }
  if (s.has_reference()) {
    std::vector<double> each;
    for (const std::vector<double>& one : ni)
      each.push_back(s.x2(one));
    double sum = 0;
    for (double v : each)
      sum += v;
    out.values.push_back({"X2", s.x2(mean_i)});  // of the replicas' mean profile
    out.values.push_back({"X2_replica_mean", sum / static_cast<double>(replicas)});
    out.values.push_back({"X2_replica_min", *std::min_element(each.begin(), each.end())});
    out.values.push_back({"X2_replica_max", *std::max_element(each.begin(), each.end())});
    out.profiles.push_back({"X2_of_each_replica", each});
  }
  return out;
}

}  // namespace ccp

DeclaredParameters CcpSim::parameters() {
  using namespace ccp;
  return {&case_number(),    &gap(),
          &rf_frequency(),   &rf_voltage(),
          &gas_density(),    &gas_temperature(),
          &cells(),          &steps_per_period(),
          &periods(),        &average_periods(),
          &plasma_density(), &electron_temperature(),
          &replicas()};
}

}  // namespace sb
