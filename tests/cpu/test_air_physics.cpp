// air's physics: the pusher against the field's work and the magnetic rotation, and model gases
// whose answers are known (drift velocity, thermal equilibrium); the gas and file checks.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <numeric>

#include "core/density_image.hpp"
#include "core/errors.hpp"
#include "harness/job/phase_averages.hpp"
#include "schedulers/registry.hpp"
#include "sims/air/air.hpp"
#include "tests/support/process.hpp"

namespace sb {
namespace {

using air::Vec3;

// Relative difference of the energy gained, m c^2 (g1 - g0), and the work q E . dx.
double work_mismatch(const air::Fields& f, double flight, int flights) {
  Vec3 x{0, 0, 0}, u{1e5, -2e5, 3e4};
  const double g0 = air::lorentz_factor(u);
  for (int k = 0; k < flights; ++k)
    air::boris_flight(x, u, f, flight);
  const double gained = (air::lorentz_factor(u) - g0) * air::kSpeedOfLight * air::kSpeedOfLight;
  const double work = air::dot(f.accel, x);  // per unit mass, as `gained`
  return std::fabs(gained - work) / std::fabs(work);
}

// Where the default cross sections are nowhere, the error names the option that gives a file.
TEST(AirCrossSections, AMissingDefaultNamesTheOptionThatGivesOne) {
  try {
    air::first_default_file({"/nonexistent/lxcat.txt", "/"});  // "/" is no regular file
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--cross-section: the default cross sections are in none of "
                 "/nonexistent/lxcat.txt, /; give --cross-section FILE");
  }
}

TEST(AirPusher, EnergyGainedIsTheFieldsWork) {
  const double a = air::kElementaryCharge / air::kElectronMass * 1e7;  // 10 MV/m
  const air::Fields electric{{0, 0, a}, {0, 0, 0}, false, 0};
  EXPECT_LT(work_mismatch(electric, 1e-12, 1000), 1e-9);  // to about 400 keV: relativistic
  const double w = air::kElementaryCharge / air::kElectronMass * 0.5;  // 0.5 T at 60 degrees
  const air::Fields both{
      {0, 0, a}, {w * std::sin(1.047), 0, -w * std::cos(1.047)}, true, w / air::kMaxSubstepAngle};
  EXPECT_LT(work_mismatch(both, 1e-12, 1000), 1e-9);
}

TEST(AirPusher, MagneticFieldAloneKeepsTheEnergy) {
  const double w = air::kElementaryCharge / air::kElectronMass * 2.0;  // 2 T
  const air::Fields f{{0, 0, 0}, {0.6 * w, 0, 0.8 * w}, true, w / air::kMaxSubstepAngle};
  Vec3 x{0, 0, 0}, u{3e6, 1e6, -2e6};
  const double e0 = air::energy_ev(u);
  const double h = air::kMaxSubstepAngle / w;
  for (int k = 0; k < 1000000; ++k)
    air::boris_substep(x, u, f, h);
  EXPECT_LT(std::fabs(air::energy_ev(u) / e0 - 1.0), 1e-12);
  EXPECT_GT(std::fabs(u.x - 3e6), 1e3);  // it did turn
}

// A one-species LXCat file whose elastic cross section gives the collision frequency nu at every
// energy from 1e-5 eV to 100 eV (sigma = nu / (N v)), mass ratio r.
// With nu_attachment > 0, an attachment cross section of that constant frequency too.
std::string model_gas_file(const std::string& name, double nu, double density, double r,
                           double nu_attachment = 0) {
  const std::string path = testing::TempDir() + name + ".txt";
  std::ofstream out(path);
  out.precision(17);
  const auto table = [&](double frequency) {
    for (int k = 0; k <= 700; ++k) {
      const double eps = 1e-5 * std::pow(10.0, k / 100.0);
      out << eps << ' ' << frequency / (density * air::speed_of(eps)) << '\n';
    }
    out << "-----\n";
  };
  out << "ELASTIC\nModel\n" << r << "\n-----\n";
  table(nu);
  if (nu_attachment > 0) {
    out << "ATTACHMENT\nModel\n-----\n";
    table(nu_attachment);
  }
  return path;
}

RunConfig model_run(const std::string& file, double field, uint32_t init_n, uint32_t phases,
                    double phase_time) {
  RunConfig c;
  c.sim = "air";
  c.scheduler = "cpu-openmp";
  c.init_n = init_n;
  sb::air::gas().set(c, "Model:1");
  sb::air::cross_section().set(c, file);
  sb::air::electric_field().set(c, field);
  sb::air::phases().set(c, phases);
  sb::air::phase_time().set(c, phase_time);
  sb::air::extrapolate().set(c, "constant");
  return c;
}

double density_at(double bar, double kelvin) {
  return bar * air::kBar / (air::kBoltzmann * kelvin);
}

double observable(const Observables& o, const std::string& name) {
  for (const auto& [key, value] : o) {
    if (key == name) return value;
  }
  ADD_FAILURE() << "no observable " << name;
  return NAN;
}

// With a constant collision frequency nu, isotropic scattering off molecules of mass ratio r
// transfers momentum at nu_m = nu / (1 + r): the drift velocity is e E / (m nu_m), whatever the
// energy distribution. Measured as the mean position's advance after 50 energy relaxation times.
TEST(AirModelGas, ConstantCollisionFrequencyDriftsAtEEOverMNu) {
  omp_set_num_threads(2);
  const double nu = 1e12, r = 0.01;
  const std::string file = model_gas_file("air_constant_nu", nu, density_at(1, 300), r);
  const double expected = 1e5;
  const double field = expected * air::kElectronMass * nu / (1 + r) / air::kElementaryCharge;
  const RunConfig c = model_run(file, field, 4000, 10, 2e-10);
  const RunResult res = run(c);
  ASSERT_EQ(res.observables.size(), 10u);
  double sum = 0;
  for (size_t k = 2; k < 10; ++k)
    sum += observable(res.observables[k], "bulk_drift_m_per_s");
  EXPECT_NEAR(sum / 8 / expected, 1.0, 0.01);
  EXPECT_EQ(res.counts.spawned, 0u);
}

// Without a field, electrons born at 0.1 eV among moving molecules (Maxwellian at T) relax to
// the gas's temperature: mean energy 3/2 k T (0.129 eV at 1000 K). The table's rows are 0.5 meV
// apart (--max-energy 2): below the first row the collision frequency falls to 0 at rest, which
// biases the equilibrium by about (0.5 meV / kT)^1.5.

TEST(AirModelGas, ThermalGasRelaxesToThreeHalvesKT) {
  omp_set_num_threads(2);
  const double nu = 1e12, r = 0.01, kelvin = 1000;
  const std::string file = model_gas_file("air_thermal", nu, density_at(1, kelvin), r);
  RunConfig c = model_run(file, 0, 4000, 13, 1e-10);
  sb::air::thermal_gas().set(c, true);
  sb::air::temperature().set(c, kelvin);
  sb::air::max_energy().set(c, 2);
  const RunResult res = run(c);
  ASSERT_EQ(res.observables.size(), 13u);
  double sum = 0;
  for (size_t k = 3; k < 13; ++k)
    sum += observable(res.observables[k], "mean_energy_eV");
  const double expected = 1.5 * air::kBoltzmann * kelvin / air::kElementaryCharge;
  EXPECT_NEAR(sum / 10 / expected, 1.0, 0.02);
  // Phases of two energy relaxation times are close to independent: the scatter of their mean
  // energies is what each phase's own error (the spread over the square root of the electrons)
  // says, within the uncertainty of a spread from 10 values.
  double squares = 0, errors = 0;
  for (size_t k = 3; k < 13; ++k) {
    const double d = observable(res.observables[k], "mean_energy_eV") - sum / 10;
    squares += d * d;
    errors += observable(res.observables[k], "mean_energy_eV_error");
  }
  const double ratio = std::sqrt(squares / 9) / (errors / 10);
  EXPECT_GT(ratio, 0.5);
  EXPECT_LT(ratio, 2.0);
}

// Without a field, among molecules at T, a gas of constant collision frequency diffuses with
// D = k T / (m nu_m) (Einstein's relation with the mobility e / (m nu_m)) in every direction: the
// bulk coefficients from the spread's growth and the flux ones from the correlation of position
// and velocity, averaged over the relaxed phases, within 3 of their standard errors; the errors
// small enough to mean something.
TEST(AirModelGas, ThermalDiffusionIsKTOverMNu) {
  omp_set_num_threads(2);
  const double nu = 1e12, r = 0.01, kelvin = 1000;
  const double density = density_at(1, kelvin);
  const std::string file = model_gas_file("air_diffusion", nu, density, r);
  RunConfig c = model_run(file, 0, 6000, 48, 5e-11);
  sb::air::thermal_gas().set(c, true);
  sb::air::temperature().set(c, kelvin);
  sb::air::max_energy().set(c, 2);
  const RunResult res = run(c);
  const double expected = density * air::kBoltzmann * kelvin * (1 + r) / (air::kElectronMass * nu);
  for (const PhaseAverage& a : phase_averages(res.observables, 8)) {
    const bool bulk = a.name.rfind("bulk_ND_", 0) == 0, flux = a.name.rfind("flux_ND_", 0) == 0;
    if (!bulk && !flux) continue;
    EXPECT_LT(a.error, 0.04 * expected) << a.name;
    EXPECT_NEAR(a.mean, expected, 3 * a.error) << a.name;
  }
}

// In a gas without reactions the flux coefficients, averaged over the electrons' paths, are the
// bulk ones: the integral of v_z over a phase is the centre's advance, that of z v_z half the
// growth of z^2 (docs/physics.md). So they agree in every phase, to rounding, far within any
// statistical error.
TEST(AirModelGas, WithoutReactionsBulkAndFluxAgree) {
  omp_set_num_threads(2);
  const double nu = 1e12, r = 0.01;
  const std::string file = model_gas_file("air_bulk_flux", nu, density_at(1, 300), r);
  const double field = 1e5 * air::kElectronMass * nu / (1 + r) / air::kElementaryCharge;
  const RunResult res = run(model_run(file, field, 2000, 12, 5e-11));
  for (const Observables& o : res.observables) {
    for (const char* what : {"drift_m_per_s", "ND_L_per_m_s", "ND_T_per_m_s"}) {
      const double bulk = observable(o, std::string("bulk_") + what);
      const double flux = observable(o, std::string("flux_") + what);
      EXPECT_NEAR(flux, bulk, 1e-6 * std::fabs(bulk)) << what;
    }
  }
}

// A constant attachment frequency nu_a beside the elastic nu takes electrons of every energy
// alike: the drift stays e E / (m nu_m), the flux one now averaged over the attached electrons'
// paths too; the attachment rate coefficient is nu_a / N and the net growth -nu_a, each within 3
// of its standard errors; and every electron lost is counted once, in the phase it attached in.
TEST(AirModelGas, ConstantAttachmentFrequencyTakesElectronsAlike) {
  omp_set_num_threads(2);
  const double nu = 1e12, r = 0.01, nu_a = 2e9, density = density_at(1, 300);
  const std::string file = model_gas_file("air_attachment", nu, density, r, nu_a);
  const double expected = 1e5;
  const double field = expected * air::kElectronMass * nu / (1 + r) / air::kElementaryCharge;
  const uint32_t init_n = 20000;
  const RunResult res = run(model_run(file, field, init_n, 12, 1e-10));
  double attached = 0;
  for (const Observables& o : res.observables)
    attached += observable(o, "attachments");
  EXPECT_EQ(attached + observable(res.observables.back(), "electrons"), init_n);
  EXPECT_EQ(res.counts.spawned, 0u);
  std::map<std::string, PhaseAverage> a;
  for (const PhaseAverage& one : phase_averages(res.observables, 2))
    a[one.name] = one;
  for (const char* name : {"flux_drift_m_per_s", "bulk_drift_m_per_s"}) {
    EXPECT_NEAR(a.at(name).mean, expected, 3 * a.at(name).error) << name;
    EXPECT_LT(a.at(name).error, 0.01 * expected) << name;
  }
  const PhaseAverage& k = a.at("attachment_rate_coefficient_m3_per_s");
  EXPECT_NEAR(k.mean, nu_a / density, 3 * k.error);
  EXPECT_LT(k.error, 0.03 * nu_a / density);
  const PhaseAverage& growth = a.at("effective_ionization_frequency_per_s");
  EXPECT_NEAR(growth.mean, -nu_a, 3 * growth.error);
}

// --three-body-density: a TIMES_N cross section (O2's three-body attachment in SIGLO) is
// multiplied by the gas's density, or by its species' (0.2 of it in N2:0.8,O2:0.2); no other
// process changes but O2's EFFECTIVE cross section, from which the inelastic ones are subtracted.
TEST(AirTable, ThreeBodyAttachmentTakesTheTotalOrThePartialDensity) {
  const std::string path = std::string(SCHEDBENCH_SOURCE_DIR) + "/data/lxcat-siglo.txt";
  const std::vector<air::Process> file = air::read_lxcat(path);
  air::TableSpec spec{path, air::parse_gas("N2:0.8,O2:0.2"), density_at(1, 300), 300, 0};
  const air::CollisionTable total = air::build_table(file, spec);
  spec.three_body_partial = true;
  const air::CollisionTable partial = air::build_table(file, spec);
  const size_t k = total.processes.size();
  ASSERT_EQ(partial.processes.size(), k);
  const uint32_t row = static_cast<uint32_t>(0.1 * total.inv_step);  // where it is large
  int reduced = 0;
  for (size_t i = 0; i < k; ++i) {
    const auto column = [&](const air::CollisionTable& t) {
      const double* cum = t.cumulative.data() + static_cast<size_t>(row) * k;
      return i == 0 ? cum[0] : cum[i] - cum[i - 1];
    };
    if (total.names[i] == "O2 ELASTIC (effective)") {
      EXPECT_GT(column(partial), column(total));  // less three-body attachment subtracted
    } else if (column(total) == 0) {
      EXPECT_EQ(column(partial), 0.0) << total.names[i];
    } else if (std::fabs(column(partial) / column(total) - 0.2) < 1e-9) {
      ++reduced;
      EXPECT_EQ(total.processes[i].effect, air::Effect::kAttachment) << total.names[i];
    } else {
      EXPECT_NEAR(column(partial) / column(total), 1.0, 1e-9) << total.names[i];
    }
  }
  EXPECT_EQ(reduced, 1);  // O2's three-body attachment alone
}

RunConfig siglo(const std::string& gas, double td);

// --ionization-sharing: equal, given or not, is the same run; uniform draws the shares and so
// gives another.
TEST(AirConventions, EqualSharingIsTheDefaultAndUniformAnotherRun) {
  const auto digest = [](const char* sharing) {
    RunConfig c = siglo("N2:1", 800);
    c.init_n = 200;
    sb::air::phases().set(c, 3);
    if (sharing != nullptr) sb::air::ionization_sharing().set(c, sharing);
    const RunResult r = run(c);
    EXPECT_GT(r.counts.spawned, 0u);
    return r.digest;
  };
  EXPECT_EQ(digest(nullptr), digest("equal"));
  EXPECT_NE(digest(nullptr), digest("uniform"));
}

RunConfig siglo(const std::string& gas, double td) {
  RunConfig c;
  c.sim = "air";
  c.scheduler = "cpu-serial";
  c.init_n = 10;
  sb::air::gas().set(c, gas);
  sb::air::reduced_field().set(c, td);
  sb::air::phases().set(c, 1);
  sb::air::phase_time().set(c, 1e-12);
  return c;
}

// Each phase's own standard errors against the scatter of the relaxed phases of `runs` (the
// same run but its seed), from phase `first` on: a quantity's deviations from a straight line
// through its phases (the swarm still relaxes slowly), each over its phase's error, have a root
// mean square of 1 where the errors are right. That root for each of `names`.
std::map<std::string, double> scatter_over_errors(RunConfig c, uint64_t runs, size_t first,
                                                  const std::vector<std::string>& names) {
  std::map<std::string, std::pair<double, double>> squares;  // sum of squares, degrees of freedom
  for (uint64_t seed = 1; seed <= runs; ++seed) {
    c.seed = seed;
    const RunResult res = run(c);
    const size_t end = res.observables.size();
    for (const std::string& name : names) {
      const auto at = [&](size_t k) {
        return std::make_pair(observable(res.observables[k], name),
                              observable(res.observables[k], name + "_error"));
      };
      // Weighted least squares of value on phase, then the weighted residuals' squares.
      double w = 0, wk = 0, wx = 0, wkk = 0, wkx = 0;
      for (size_t k = first; k < end; ++k) {
        const auto [x, e] = at(k);
        EXPECT_GT(e, 0) << name << " phase " << k;
        const double v = 1 / (e * e), t = static_cast<double>(k);
        w += v, wk += v * t, wx += v * x, wkk += v * t * t, wkx += v * t * x;
      }
      const double slope = (w * wkx - wk * wx) / (w * wkk - wk * wk);
      const double offset = (wx - slope * wk) / w;
      auto& [sum, dof] = squares[name];
      for (size_t k = first; k < end; ++k) {
        const auto [x, e] = at(k);
        const double r = (x - offset - slope * static_cast<double>(k)) / e;
        sum += r * r;
      }
      dof += static_cast<double>(end - first - 2);
    }
  }
  std::map<std::string, double> ratios;
  for (const auto& [name, s] : squares)
    ratios[name] = std::sqrt(s.first / s.second);
  return ratios;
}

// In air at 400 Td, where electrons ionize ahead of the swarm's centre and attach behind it:
// 16 runs of 20 relaxed phases, so each root is 1 give or take 4 %. The errors are models
// (docs/physics.md, "The errors of one phase") and measure from 0.88 to 1.12 here: within 0.75
// to 1.3 they hold.
TEST(AirPhaseErrors, TheScatterOfRelaxedPhasesIsWhatTheirErrorsSay) {
  omp_set_num_threads(2);
  RunConfig c = siglo("N2:0.8,O2:0.2", 400);
  c.scheduler = "cpu-openmp";
  c.init_n = 1000;
  sb::air::phases().set(c, 30);
  sb::air::phase_time().set(c, 4e-12);
  const auto ratios =
      scatter_over_errors(c, 16, 10,
                          {"mean_energy_eV", "flux_drift_m_per_s", "bulk_drift_m_per_s",
                           "effective_ionization_frequency_per_s", "alpha_N_m2",
                           "flux_ND_L_per_m_s", "flux_ND_T_per_m_s", "bulk_ND_L_per_m_s",
                           "bulk_ND_T_per_m_s", "ionization_rate_coefficient_m3_per_s"});
  for (const auto& [name, ratio] : ratios) {
    EXPECT_GT(ratio, 0.75) << name;
    EXPECT_LT(ratio, 1.3) << name;
  }
}

// Where the bulk drift is slow and noisy (the Ness-Robson attachment gas at 0.4 Td, its drift
// known to about 20 % in a phase), eta/N's error is mostly the drift's: 2 runs of 24 relaxed
// phases, each root 1 give or take 11 %; they measure 0.88 (eta/N), 1.04 and 0.95 here.
TEST(AirPhaseErrors, EtaOverNCarriesTheDriftsError) {
  omp_set_num_threads(2);
  RunConfig c;
  c.sim = "air";
  c.scheduler = "cpu-openmp";
  c.init_n = 50000;
  sb::air::cross_section().set(
      c, std::string(SCHEDBENCH_SOURCE_DIR) + "/data/swarm/ness-robson-p-0.5.txt");
  sb::air::gas().set(c, "ness-robson-p-0.5:1");
  sb::air::reduced_field().set(c, 0.4);
  sb::air::max_energy().set(c, 10);
  sb::air::thermal_gas().set(c, true);
  sb::air::temperature().set(c, 293);
  sb::air::phases().set(c, 30);
  sb::air::phase_time().set(c, 5e-11);
  const auto ratios = scatter_over_errors(
      c, 2, 6, {"eta_N_m2", "attachment_rate_coefficient_m3_per_s", "bulk_drift_m_per_s"});
  for (const auto& [name, ratio] : ratios) {
    EXPECT_GT(ratio, 0.75) << name;
    EXPECT_LT(ratio, 1.3) << name;
  }
}

void expect_usage_error(const RunConfig& c, const std::string& message) {
  try {
    run(c);
    ADD_FAILURE() << "expected a UsageError: " << message;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

// --init-radius: the ball is filled uniformly (r^3 / R^3 is uniform on [0, 1], the centre of
// mass is the origin), and a radius of 0 leaves the electrons at the origin with the velocities
// they have in the ball (the position is drawn after the direction).
TEST(AirInitial, TheInitialBallIsFilledUniformlyAndRadiusZeroIsTheOrigin) {
  const DrawKey key = DrawKey::from_seed(7);
  air::Params ball{};
  ball.init_radius = 1e-4;
  const air::Params origin{};
  constexpr int kN = 20000;
  double cube = 0, x = 0, y = 0, z = 0;
  for (uint64_t i = 0; i < kN; ++i) {
    const air::Particle p = AirSim::initial(i, ball, key);
    const air::Particle q = AirSim::initial(i, origin, key);
    ASSERT_EQ(q.x, 0.0);
    ASSERT_EQ(q.z, 0.0);
    ASSERT_EQ(p.ux, q.ux);
    ASSERT_EQ(p.uz, q.uz);
    const double r2 = (p.x * p.x + p.y * p.y + p.z * p.z) / (ball.init_radius * ball.init_radius);
    ASSERT_LE(r2, 1.0);
    cube += r2 * std::sqrt(r2);
    x += p.x;
    y += p.y;
    z += p.z;
  }
  // Means of kN draws: r^3/R^3 has standard deviation 0.29, a coordinate over R 0.45; 5 sigma.
  const double five_sigma = 5.0 / std::sqrt(kN);
  EXPECT_NEAR(cube / kN, 0.5, 0.29 * five_sigma);
  for (double c : {x, y, z})
    EXPECT_NEAR(c / kN / ball.init_radius, 0.0, 0.45 * five_sigma);
}

TEST(AirGas, BadMixturesAreUsageErrors) {
  expect_usage_error(siglo("N2:0.8,O2:0.3", 100), "has fractions summing to 1.1");
  expect_usage_error(siglo("N2:0.8,O2", 100), "has 'O2'");
  for (const char* fraction : {"0x0.2", "+0.2", " 0.2", "0.2 "})
    expect_usage_error(siglo(std::string("N2:0.8,O2:") + fraction, 100), "has fraction");
  expect_usage_error(siglo("N2:0.5,N2:0.5", 100), "names N2 twice");
  expect_usage_error(siglo("N2:1.5", 100), "has fraction '1.5'");
  expect_usage_error(siglo("He:1", 100), "species He is not in");
  RunConfig both = siglo("N2:1", 100);
  sb::air::electric_field().set(both, 1e6);
  expect_usage_error(both, "give either --electric-field V/m or --reduced-field Td");
  RunConfig none = siglo("N2:1", 100);
  none.declared_values.erase("reduced_field");
  expect_usage_error(none, "--reduced-field: required for sim air");
}

TEST(AirGas, FractionsWithinOneMillionthAreAccepted) {
  EXPECT_EQ(run(siglo("N2:0.8000005,O2:0.2", 100)).counts.initial, 10u);
}

TEST(AirGas, ASpeciesWithoutElasticCrossSectionIsAUsageError) {
  const std::string path = testing::TempDir() + "air_no_elastic.txt";
  std::ofstream(path) << "EXCITATION\nXx\n1.0\n-----\n1 0\n2 1e-20\n-----\n";
  RunConfig c = siglo("Xx:1", 100);
  sb::air::cross_section().set(c, path);
  expect_usage_error(c, "species Xx has no ELASTIC or EFFECTIVE cross section");
}

// An energy above the table is a run error by default, naming the energy and the file.
TEST(AirGas, EnergyAboveTheTableFailsTheRunByDefault) {
  RunConfig c = siglo("N2:1", 2000);
  sb::air::max_energy().set(c, 20);
  c.init_n = 100;
  try {
    run(c);
    FAIL() << "expected a RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("above the top of the cross sections (20 eV"),
              std::string::npos)
        << e.what();
  }
  sb::air::extrapolate().set(c, "constant");
  EXPECT_GT(run(c).counts.particle_steps, 0u);
}

// --extrapolate error holds at the end of every flight and of every phase: with a table that
// stops at 0.001 eV, below the electrons' start, and a phase shorter than any flight at that
// table's rate, no flight ends to see it, and the phase's end must.
TEST(AirGas, ATableBelowTheElectronsEnergiesFailsTheRun) {
  RunConfig c = siglo("N2:1", 100);
  sb::air::max_energy().set(c, 0.001);
  sb::air::phase_time().set(c, 1e-13);  // flights of 0.001 eV's rate outlast it: none ends
  c.init_n = 50;
  try {
    run(c);
    FAIL() << "expected a RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("above the top of the cross sections"), std::string::npos)
        << e.what();
  }
}

// A byte-order mark before the first keyword, or CRLF line ends, drop nothing: the run is the
// clean file's.
TEST(AirGas, AByteOrderMarkChangesNothing) {
  RunConfig c = siglo("N2:0.8,O2:0.2", 300);
  c.init_n = 200;
  const RunResult clean = run(c);
  const std::string text =
      testing_support::slurp(std::string(SCHEDBENCH_SOURCE_DIR) + "/data/lxcat-siglo.txt");
  const std::string path = testing::TempDir() + "air_bom.txt";
  std::ofstream(path) << "\xef\xbb\xbf" << text;
  sb::air::cross_section().set(c, path);
  const RunResult marked = run(c);
  EXPECT_EQ(marked.digest, clean.digest);
  EXPECT_EQ(marked.counts.spawned, clean.counts.spawned);
  // Nor do Windows line ends.
  std::string crlf;
  for (const char ch : text)
    crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  const std::string windows = testing::TempDir() + "air_crlf.txt";
  std::ofstream(windows) << crlf;
  sb::air::cross_section().set(c, windows);
  EXPECT_EQ(run(c).digest, clean.digest);
}

// Flights are what is counted: a run's particle-steps equal the elastic, excitation, ionization
// and attachment collisions plus the null ones plus one cut flight per electron and phase, so
// they are far fewer than the windows' steps.
TEST(AirSteps, ParticleStepsAreFlightsNotWindows) {
  RunConfig c = siglo("N2:1", 100);
  c.init_n = 100;
  sb::air::phases().set(c, 3);
  sb::air::phase_time().set(c, 1e-11);
  const RunResult r = run(c);
  const uint32_t window = make_setup<AirSim>(c)->phases().steps;
  EXPECT_LT(r.counts.particle_steps, uint64_t{3} * 100 * window * 3 / 4);
  EXPECT_GT(r.counts.particle_steps, 3u * 100u);
}

// The picture is the swarm seen from the side, z (the drift) up, on square cells spanning the
// particles: two electrons 10 um above a third make a picture 128 cells tall and one wide (plus
// margins), brightest at the top, dimmer at the bottom, dark in the margin.
TEST(AirPicture, ZIsUpCellsAreSquareAndAttachedElectronsAreLeftOut) {
  std::vector<AirSim::Particle> ps(3);
  ps[1].z = ps[2].z = 1e-5;
  const Image img = AirSim::picture(ps);
  const DensityLayout layout = density_layout(1 + 8, 128 + 1 + 8);
  const int scale = layout.cell_pixels;
  ASSERT_GE(scale, 1);
  EXPECT_EQ(layout.map_height, (128 + 1 + 8) * scale);
  EXPECT_EQ(layout.map_width, (1 + 8) * scale);
  EXPECT_EQ(img.width, layout.width);
  EXPECT_EQ(img.height, layout.height);
  ASSERT_EQ(img.rgb.size(), static_cast<size_t>(img.width) * img.height * 3);
  const auto brightness = [&img, scale](int cell_x, int cell_row) {
    const uint8_t* px =
        &img.rgb[3 * (static_cast<size_t>(cell_row * scale) * img.width + cell_x * scale)];
    return px[0] + px[1] + px[2];
  };
  const int top = brightness(4, 4), bottom = brightness(4, 4 + 128), margin = brightness(0, 0);
  EXPECT_GT(top, bottom) << "two electrons at the top, one at the bottom";
  EXPECT_GT(bottom, margin);
  // An attached electron, kept to its phase's end, is not drawn: far away, it changes nothing.
  std::vector<AirSim::Particle> with = ps;
  with.push_back(ps[0]);
  with.back().z = 1e-3;
  with.back().attached = 1;
  const Image same = AirSim::picture(with);
  EXPECT_EQ(same.height, img.height);
  EXPECT_TRUE(same.rgb == img.rgb);
}

}  // namespace
}  // namespace sb
