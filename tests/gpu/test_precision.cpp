// Reduced precision's physics against double's (core/precision.hpp; docs/physics.md, "Reduced
// precision"), on the GPU, where the runs are large enough to resolve small differences: air's
// mean energy, drift velocities and alpha/N on the validation cases of plot/validate_air.py (N2
// at 100-800 Td, twenty times the electrons) and its net ionization near air's critical field;
// pic's counts and energy distribution on its default workload. A mixed or single run takes the
// same draws as the double run at first, but its trajectories part from double's within a few
// collisions, so the runs are treated as independent samples: each difference is compared with
// the two sides' standard errors combined, and must lie within 3 of them (air's, whose errors come
// from the scatter between phases) or 4 (pic's, from the scatter between 6 seeds).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "core/precision.hpp"
#include "harness/job/phase_averages.hpp"
#include "schedulers/host_driver.hpp"
#include "schedulers/registry.hpp"
#include "sims/registry.hpp"
#include "tests/support/air_config.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/summary.hpp"

namespace sb {
namespace {

constexpr const char* kPrecisions[] = {"double", "mixed", "single"};
constexpr double kMostErrors = 3;

struct Estimate {
  double mean = 0, error = 0;
};

// |a - b| in standard errors of the difference of two independent estimates.
double errors_apart(Estimate a, Estimate b) {
  return std::abs(a.mean - b.mean) / std::sqrt(a.error * a.error + b.error * b.error);
}

// Checks each precision's estimates against double's and adds a summary row per quantity.
void compare_with_double(const std::string& what,
                         const std::map<std::string, std::map<std::string, Estimate>>& by_precision,
                         double most_errors = kMostErrors) {
  for (const auto& [quantity, d] : by_precision.at("double")) {
    std::string row = fmt::format("double {:.5g} ± {:.2g}", d.mean, d.error);
    for (const char* p : {"mixed", "single"}) {
      const Estimate e = by_precision.at(p).at(quantity);
      const double apart = errors_apart(e, d);
      EXPECT_LE(apart, most_errors)
          << what << " " << quantity << ": " << p << " " << e.mean << " ± " << e.error
          << ", double " << d.mean << " ± " << d.error;
      row += fmt::format("; {} {:+.3f} % ({:.1f} σ)", p, 100 * (e.mean / d.mean - 1), apart);
    }
    testing_support::summary().push_back({"precision: " + what, quantity, row});
  }
}

RunConfig air_case(const std::string& gas, double td, uint64_t init_n, uint32_t phases,
                   double phase_time, double max_energy) {
  RunConfig c = with_air(RunConfig{}, gas, td, phases);
  c.sim = "air";
  c.scheduler = "dynamic-warp";
  c.init_n = init_n;
  c.capacity = 50'000'000;
  air::phase_time().set(c, phase_time);
  air::max_energy().set(c, max_energy);
  return c;
}

// The averages over the relaxed phases [skip, end) of the run in each precision.
std::map<std::string, std::map<std::string, Estimate>> air_averages(
    RunConfig c, uint32_t skip, const std::vector<std::string>& quantities) {
  std::map<std::string, std::map<std::string, Estimate>> out;
  for (const char* p : kPrecisions) {
    precision::parameter().set(c, p);
    const RunResult r = run(c);
    for (const PhaseAverage& a : phase_averages(r.observables, skip)) {
      for (const std::string& q : quantities) {
        if (a.name == q) out[p][q] = {a.mean, a.error};
      }
    }
    for (const std::string& q : quantities) {
      EXPECT_TRUE(out[p].count(q) && std::isfinite(out[p][q].error)) << q << " in " << p;
    }
  }
  return out;
}

TEST(GpuPrecision, AirTransportAndIonizationAgreeWithDouble) {
  SB_REQUIRE_CUDA_DEVICE();
  const std::vector<std::string> transport = {"mean_energy_eV", "flux_drift_m_per_s",
                                              "bulk_drift_m_per_s", "alpha_N_m2"};
  struct N2Case {
    double td;
    uint64_t init_n;
    uint32_t phases;
    double phase_time;
    uint32_t skip;
    double max_energy;
  };
  for (const N2Case& k :
       {N2Case{100, 100'000, 60, 5e-12, 20, 60}, N2Case{200, 200'000, 50, 5e-12, 15, 100},
        N2Case{400, 80'000, 30, 2e-12, 10, 200}, N2Case{800, 10'000, 22, 2e-12, 10, 400}}) {
    const RunConfig c = air_case("N2:1", k.td, k.init_n, k.phases, k.phase_time, k.max_energy);
    compare_with_double(fmt::format("N2 at {} Td", k.td), air_averages(c, k.skip, transport));
  }
  // Near air's critical field (about 118 Td, docs/physics.md): ionization and attachment nearly
  // balance, so their net rate is the most sensitive to a bias in the energy distribution.
  const std::vector<std::string> balance = {"mean_energy_eV", "alpha_N_m2", "eta_N_m2",
                                            "effective_ionization_frequency_per_s"};
  for (const double td : {115.0, 125.0}) {
    const RunConfig c = air_case("N2:0.8,O2:0.2", td, 400'000, 30, 5e-12, 60);
    compare_with_double(fmt::format("air at {} Td", td), air_averages(c, 5, balance));
  }
}

// One pic run's statistics: its counts, and its final population's mean log10 energy (v^2,
// m^2/s^2, as its levels are: 10^-6 to 10^16) and fraction in each decade of energy.
template <class P>
std::map<std::string, double> pic_statistics(const RunConfig& c) {
  RunOptions opt;
  opt.keep_particles = true;
  const RunResult r = run(c, opt);
  const auto& ps = dynamic_cast<const HostParticleSet<PicSimIn<P>>&>(*r.particles).particles();
  std::vector<double> decades(22, 0.0);
  double sum = 0;
  for (const auto& p : ps) {
    const double vx = p.vx, vy = p.vy, vz = p.vz;
    const double e = std::log10(std::max(vx * vx + vy * vy + vz * vz, 1e-6));
    decades[std::min(21, std::max(0, static_cast<int>(e + 6)))] += 1;
    sum += e;
  }
  const double n = static_cast<double>(ps.size());
  std::map<std::string, double> out = {{"final particles", static_cast<double>(r.counts.final)},
                                       {"spawned", static_cast<double>(r.counts.spawned)},
                                       {"removed", static_cast<double>(r.counts.removed)},
                                       {"mean log10 energy", sum / n}};
  for (size_t d = 0; d < decades.size(); ++d)
    out[fmt::format("fraction at 10^{} m^2/s^2", static_cast<int>(d) - 6)] = decades[d] / n;
  return out;
}

// pic's default workload (1e6 particles, 10 poisson x 1000 mobility steps, the synthetic table)
// with kSeeds seeds in each precision. pic's population is a branching process, whose counts vary
// from seed to seed far more than a Poisson count's, and whose children share their parent's
// energy: so each statistic's error is its spread over the seeds (the mean's standard error), and
// with kSeeds a side the difference is held to kMostSeedErrors of them (Student's t at about 10
// degrees of freedom makes 4 a chance of 0.3 % for samples alike). The energy's decades compared
// are those holding at least 1 % of double's particles.
constexpr uint64_t kSeeds = 6;
constexpr double kMostSeedErrors = 4;

TEST(GpuPrecision, PicCountsAndEnergiesAgreeWithDouble) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c;
  c.sim = "pic";
  c.scheduler = "dynamic-warp";
  c.init_n = 1'000'000;
  c.capacity = 100'000'000;
  pic::poisson_steps().set(c, 10);
  pic::mobility_steps().set(c, 1000);
  std::map<std::string, std::map<std::string, Estimate>> estimates;
  for (const char* p : kPrecisions) {
    precision::parameter().set(c, p);
    std::map<std::string, std::vector<double>> samples;
    for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
      c.seed = seed;
      const std::string name = p;
      const auto stats = name == "double"  ? pic_statistics<precision::Double>(c)
                         : name == "mixed" ? pic_statistics<precision::Mixed>(c)
                                           : pic_statistics<precision::Single>(c);
      for (const auto& [key, value] : stats)
        samples[key].push_back(value);
    }
    for (const auto& [key, xs] : samples) {
      double mean = 0, square = 0;
      for (const double x : xs)
        mean += x / static_cast<double>(xs.size());
      for (const double x : xs)
        square += (x - mean) * (x - mean) / static_cast<double>(xs.size() - 1);
      estimates[p][key] = {mean, std::sqrt(square / static_cast<double>(xs.size()))};
    }
  }
  for (auto it = estimates["double"].begin(); it != estimates["double"].end();) {
    const bool rare = it->first.rfind("fraction", 0) == 0 && it->second.mean < 0.01;
    it = rare ? estimates["double"].erase(it) : std::next(it);
  }
  compare_with_double(fmt::format("pic default, {} seeds", kSeeds), estimates, kMostSeedErrors);
}

}  // namespace
}  // namespace sb
