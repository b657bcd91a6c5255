// ccp's physics against what no one here wrote (docs/physics.md, "ccp: the Turner helium
// discharge"): the Poisson solve against its exact solution, a cold plasma's oscillation at the
// plasma frequency and its energy, the ledger of births and losses, the majorant's failure, the
// reference profile read, and bad input refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog.hpp"
#include "sims/ccp/ccp.hpp"
#include "tests/support/option_table.hpp"

namespace sb {
namespace {

using ccp::Particle;

void set(RunConfig& c, const std::string& key, const std::string& value) {
  for (const DeclaredParameter* p : find_sim("ccp").parameters) {
    if (p->key == key) {
      p->set(c, value);
      return;
    }
  }
  FAIL() << "ccp has no parameter " << key;
}

RunConfig ccp_config(uint64_t init_n) {
  RunConfig c;
  c.sim = "ccp";
  c.scheduler = "cpu-serial";
  c.init_n = init_n;
  return c;
}

// A smaller discharge: `cells` cells, `steps` steps per RF period, `periods` periods of which the
// last `averaged` are averaged.
RunConfig reduced(uint64_t init_n, const char* cells, const char* steps, const char* periods,
                  const char* averaged) {
  RunConfig c = ccp_config(init_n);
  set(c, "cells", cells);
  set(c, "steps_per_period", steps);
  set(c, "periods", periods);
  set(c, "average_periods", averaged);
  return c;
}

// A uniform charge between the electrodes: the potential is a parabola, which the three-point
// Laplacian and the centred field reproduce exactly, the electrodes' half cells too.
TEST(CcpField, ThePoissonSolveWithTheRfElectrodeIsExactForAUniformCharge) {
  RunConfig c = ccp_config(2);
  set(c, "cells", "16");
  const ccp::Setup s(c);
  const ccp::Mesh& m = s.mesh();
  const uint32_t n = m.cells;
  std::vector<int64_t> net(n + 1, int64_t{3} << 32);
  net[0] = net[n] = int64_t{3} << 31;  // half cells
  const double rhs = 2.5e-12, wall = rhs / m.dx, voltage = 170;
  std::vector<ccp::ChargeSum> sums(n + 1);
  std::vector<double> phi(n + 1), e(n + 1);
  ccp::solve_field(m, net.data(), rhs, wall, voltage, sums.data(), phi.data(), e.data());
  const double a = 3 * ccp::kWeightScale * rhs / (m.dx * m.dx);  // rho / eps0
  const double b = voltage / m.length + a * m.length / 2;
  for (uint32_t j = 0; j <= n; ++j) {
    const double x = j * m.dx;
    EXPECT_NEAR(phi[j], -a / 2 * x * x + b * x, 1e-9 * std::abs(b * m.length)) << "node " << j;
    EXPECT_NEAR(e[j], a * x - b, 1e-9 * std::abs(b)) << "node " << j;
  }
}

// A slab of cold plasma in the middle half of the gap (vacuum between it and the electrodes,
// which would otherwise absorb its edges), its electrons displaced by a small sine, stepped by the
// sim's own step and field without an engine; ions almost still. The displacement is a whole sine
// over the slab, so that its mean is zero: a mean displacement would charge the electrodes, and the
// field between them would be less than the local e n xi / eps0 of a cold plasma's oscillation.
struct ColdPlasma {
  static constexpr uint32_t kElectrons = 4096;
  static constexpr double kDensity = 1e15;
  static constexpr double kOmegaDt = 0.05;
  double omega = std::sqrt(kDensity * ccp::kElementaryCharge * ccp::kElementaryCharge /
                           (ccp::kVacuumPermittivity * ccp::kElectronMass));
  std::shared_ptr<const ccp::Setup> setup;
  std::unique_ptr<ccp::HostState> state;
  std::vector<Particle> ps;
  std::vector<double> rest;  // each electron's undisplaced position
  uint32_t t = 0;

  ColdPlasma() {
    RunConfig c = ccp_config(2 * kElectrons);
    set(c, "cells", "64");
    set(c, "gas_density", "1e10");  // no collision in the run
    set(c, "rf_voltage", "0");
    set(c, "plasma_density", "5e14");  // over the whole gap: kDensity in the slab
    set(c, "steps_per_period", "1000");
    set(c, "periods", "1");
    set(c, "average_periods", "1");
    set(c, "rf_frequency", fmt_real(omega / (kOmegaDt * 1000)));
    setup = std::make_shared<const ccp::Setup>(c);
    state = std::make_unique<ccp::HostState>(setup);
    const double length = setup->mesh().length;
    for (uint32_t k = 0; k < kElectrons; ++k) {
      const double slab = (k + 0.5) / kElectrons, x = length * (0.25 + 0.5 * slab);
      Particle e{}, i{};
      e.flags = ccp::kElectron;
      e.xe = x + 1e-3 * length * std::sin(2 * ccp::kPi * slab);
      e.tag = ParticleTag::make(k, 0);
      i.flags = ccp::kIon;
      i.xi = x;
      i.tag = ParticleTag::make(kElectrons + k, 0);
      ps.push_back(e);
      ps.push_back(i);
      rest.push_back(x);
    }
  }
  static std::string fmt_real(double v) { return shortest_text(v); }

  // One step of every particle; false where any spawned or died.
  bool step() {
    state->before_phase(ps, {t, t + 1});
    const ccp::Params prm = state->params();
    bool quiet = true;
    for (Particle& p : ps) {
      Particle child{};
      StepDraws draws(DrawKey::from_seed(1), p.tag.id(), t);
      quiet = quiet && advance<CcpSim>(p, child, prm, draws, {t, t + 1}) == Fate::kAlive;
    }
    ++t;
    return quiet;
  }
  // The electrons' mean displacement in the second eighth to the third of the slab, where the
  // sine is near its crest.
  double displacement() const {
    double sum = 0;
    for (uint32_t k = kElectrons / 8; k < 3 * kElectrons / 8; ++k)
      sum += ps[2 * k].xe - rest[k];
    return sum / (kElectrons / 4);
  }
  // Kinetic energy of both species (J per m^2 of electrode), at the half step the velocities are.
  double kinetic() const {
    double sum = 0;
    for (const Particle& p : ps) {
      sum += ccp::kElectronMass * (p.vxe * p.vxe + p.vye * p.vye + p.vze * p.vze) +
             ccp::kIonMass * (p.vxi * p.vxi + p.vyi * p.vyi + p.vzi * p.vzi);
    }
    return 0.5 * sum * setup->weight();
  }
  // The field's energy (J per m^2) of the last solve, by the trapezoidal rule over the nodes.
  double field_energy() const {
    const ccp::Mesh& m = setup->mesh();
    const double* e = state->params().field;
    double sum = 0;
    for (uint32_t j = 0; j <= m.cells; ++j)
      sum += (j == 0 || j == m.cells ? 0.5 : 1.0) * e[j] * e[j];
    return 0.5 * ccp::kVacuumPermittivity * sum * m.dx;
  }
};

TEST(CcpPlasma, ColdElectronsOscillateAtThePlasmaFrequency) {
  ColdPlasma plasma;
  std::vector<double> crossings;  // steps where the displacement changes sign, interpolated
  double last = plasma.displacement();
  const uint32_t steps = static_cast<uint32_t>(4 * 2 * ccp::kPi / ColdPlasma::kOmegaDt);
  for (uint32_t s = 0; s < steps; ++s) {
    ASSERT_TRUE(plasma.step()) << "a particle spawned or died in step " << s;
    const double now = plasma.displacement();
    if ((last > 0) != (now > 0)) crossings.push_back(s + last / (last - now));
    last = now;
  }
  ASSERT_GE(crossings.size(), 6u);
  const double half_period =
      (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  const double omega = ccp::kPi / (half_period * plasma.setup->dt());
  EXPECT_NEAR(omega / plasma.omega, 1.0, 0.01);
}

// Without collisions the field's energy and the particles' are exchanged, their sum kept (to the
// leapfrog's accuracy: kinetic energy at the step is the mean of the half steps' around it).
TEST(CcpPlasma, EnergyIsConservedWithoutCollisions) {
  ColdPlasma plasma;
  double first = NAN, most_field = 0, worst = 0;
  for (uint32_t s = 0; s < 400; ++s) {
    const double kinetic_before = plasma.kinetic();  // at step s - 1/2
    ASSERT_TRUE(plasma.step());
    const double field = plasma.field_energy();  // of the positions at step s
    const double total = field + 0.5 * (kinetic_before + plasma.kinetic());
    if (std::isnan(first)) first = total;
    worst = std::max(worst, std::abs(total - first));
    most_field = std::max(most_field, field);
  }
  ASSERT_GT(most_field, 0);
  EXPECT_LT(worst, 0.01 * most_field);
}

// Electrons are born only by ionization and lost only at the electrodes, and so are ions: each RF
// period's row of the run adds up to the change of each species, exactly.
TEST(CcpLedger, EveryPeriodsBirthsAndLossesAddUpToItsChange) {
  const RunResult r = run(reduced(4000, "32", "200", "4", "2"));
  ASSERT_EQ(r.observables.size(), 4u);
  double electrons = 2000, ions = 2000, born = 0, lost = 0;
  for (const Observables& row : r.observables) {
    const auto at = [&](const char* name) -> double {
      for (const auto& [key, value] : row) {
        if (key == name) return value;
      }
      ADD_FAILURE() << "no " << name;
      return NAN;
    };
    EXPECT_EQ(at("electrons"), electrons + at("ionizations") - at("electrons_lost_left") -
                                   at("electrons_lost_right"));
    EXPECT_EQ(at("ions"), ions + at("ionizations") - at("ions_lost_left") - at("ions_lost_right"));
    electrons = at("electrons");
    ions = at("ions");
    born += at("ionizations");
    lost += at("electrons_lost_left") + at("electrons_lost_right");
  }
  EXPECT_GT(born, 0);
  EXPECT_GT(lost, 0);
  ASSERT_TRUE(r.summary.has_value());
  ASSERT_EQ(r.summary->profiles.size(), 3u);
  EXPECT_EQ(r.summary->profiles[1].second.size(), 33u);
}

// A reduced Case 1 (8192 particles, 40 RF periods, the last 8 averaged; far from its steady
// state) of cpu-serial, seed 7, against the spread of 64 replicas of it on a GPU
// (tests/data/ccp_reduced_case1_ensemble.json, which names its command and build): one discharge
// lies where that spread says one discharge lies. Its ion profile against the replicas' mean, in
// units of one discharge's standard deviation at each node, sums to about one a node (more,
// as the nodes are correlated; a bias of a few deviations sums to far more); its peak and its X²
// against the benchmark's profile lie within four deviations of the replicas'.
TEST(CcpEnsemble, AReducedCase1LiesInTheSpreadOfAGpuEnsemble) {
  std::ifstream in(option_table::source_file("tests/data/ccp_reduced_case1_ensemble.json"));
  ASSERT_TRUE(in) << "the ensemble's file is missing";
  const nlohmann::json ensemble = nlohmann::json::parse(in)["summary"];
  const double replicas = ensemble["values"]["replicas"].get<double>();
  const std::vector<double> mean = ensemble["profiles"]["ion_density"];
  const std::vector<double> error = ensemble["profiles"]["ion_density_error"];
  const std::vector<double> x2s = ensemble["profiles"]["X2_of_each_replica"];

  RunConfig c = reduced(8192, "128", "400", "40", "8");
  c.seed = 7;
  const RunResult r = run(c);
  ASSERT_TRUE(r.summary.has_value());
  const auto value = [&](const char* name) {
    for (const auto& [key, v] : r.summary->values) {
      if (key == name) return v;
    }
    ADD_FAILURE() << "no " << name;
    return 0.0;
  };
  const std::vector<double>& ours = r.summary->profiles[2].second;  // the ions'
  ASSERT_EQ(ours.size(), mean.size());
  double squares = 0;
  size_t peak = 0;
  for (size_t j = 0; j < ours.size(); ++j) {
    const double sd = error[j] * std::sqrt(replicas);
    squares += (ours[j] - mean[j]) * (ours[j] - mean[j]) / (sd * sd);
    if (mean[j] > mean[peak]) peak = j;
  }
  EXPECT_LT(squares / static_cast<double>(ours.size()), 3.0);
  EXPECT_NEAR(value("peak_ion_density"), mean[peak], 4 * error[peak] * std::sqrt(replicas));
  double sum = 0, sum2 = 0;
  for (double v : x2s) sum += v;
  const double x2_mean = sum / static_cast<double>(x2s.size());
  for (double v : x2s) sum2 += (v - x2_mean) * (v - x2_mean);
  const double x2_sd = std::sqrt(sum2 / static_cast<double>(x2s.size() - 1));
  EXPECT_NEAR(value("X2"), x2_mean, 4 * x2_sd);
}

TEST(CcpMajorant, AnElectronAboveTheMajorantFailsTheRunNamingItsEnergy) {
  RunConfig c = reduced(2000, "16", "400", "2", "1");
  set(c, "rf_voltage", "3e5");
  try {
    run(c);
    FAIL() << "the run was not refused";
  } catch (const RunError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("electron(s) at up to"), std::string::npos) << what;
    EXPECT_NE(what.find("above the majorant"), std::string::npos) << what;
  }
}

TEST(CcpReference, ACasesMeshReadsThePublishedIonProfile) {
  const ccp::Setup s(ccp_config(2));
  ASSERT_EQ(s.reference_mean().size(), 129u);
  const double peak = *std::max_element(s.reference_mean().begin(), s.reference_mean().end());
  EXPECT_NEAR(peak / 1.405e14, 1.0, 0.01);  // the peak the benchmark quotes
  RunConfig other = ccp_config(2);
  set(other, "cells", "100");
  EXPECT_TRUE(ccp::Setup(other).reference_mean().empty());
}

TEST(CcpInput, BadInputIsRefusedNamingTheValue) {
  try {
    ccp::Setup{ccp_config(3)};
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--init-n 3: ccp starts as many electrons as ions; accepted: an even number");
  }
  RunConfig c = ccp_config(2);
  set(c, "periods", "10");
  try {
    ccp::Setup{c};
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--average-periods: 32 exceeds the 10 RF period(s) simulated; accepted: at most 10 "
              "(--periods)");
  }
}

}  // namespace
}  // namespace sb
