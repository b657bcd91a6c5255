// The CPU engines against each other: equal digests and counts, and the capacity error.
#include <gtest/gtest.h>
#include <omp.h>

#include "core/errors.hpp"
#include "schedulers/registry.hpp"
#include "tests/support/air_config.hpp"

namespace sb {
namespace {

RunConfig config(const std::string& sim, uint64_t init_n, uint32_t steps) {
  RunConfig c;
  c.sim = sim;
  c.init_n = init_n;
  c.steps = steps;
  return c;
}

struct Case {
  const char* name;
  RunConfig config;
};

RunConfig pic(uint64_t init_n, uint32_t poisson, uint32_t mobility, double chance) {
  RunConfig c = config("pic", init_n, 0);
  c.poisson_steps = poisson;
  c.mobility_steps = mobility;
  c.collision_chance = chance;
  return c;
}

RunConfig air(const std::string& gas, double td, uint64_t init_n, uint32_t phases) {
  return with_air(config("air", init_n, 0), gas, td, phases);
}

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  out.push_back({"toy_one_particle", config("toy", 1, 3000)});
  out.push_back({"toy_center", config("toy", 200, 2000)});
  RunConfig column = config("toy", 3000, 2000);  // about 2.6 million particles at the end
  column.layout = "column";
  out.push_back({"toy_column", column});
  out.push_back({"mvp_default_chance", config("mvp", 20000, 500)});
  RunConfig heavy = config("mvp", 1000, 150);  // about 1.5 million particles at the end
  heavy.split_chance = 5;
  out.push_back({"mvp_heavy_spawning", heavy});
  RunConfig skip = config("mvp", 5000, 400);
  skip.split_chance = 1;
  skip.skip_spawned = true;
  out.push_back({"mvp_skip_spawned", skip});
  RunConfig seeded = config("mvp", 3000, 300);
  seeded.split_chance = 0.5;
  seeded.seed = 0xDEADBEEFCAFEull;
  out.push_back({"mvp_other_seed", seeded});
  out.push_back({"pic_synthetic", pic(20000, 3, 300, -1)});
  for (const double chance : {30.0, 60.0, 90.0}) {
    out.push_back({chance == 30   ? "pic_chance_30"
                   : chance == 60 ? "pic_chance_60"
                                  : "pic_chance_90",
                   pic(2000, 2, 150, chance)});
  }
  out.push_back({"pic_extinction", pic(20, 5, 200, 90)});
  out.push_back({"air_ionization", air("N2:1", 800, 50, 3)});
  out.push_back({"air_attachment", air("O2:1", 20, 200, 3)});
  RunConfig magnetic = air("N2:0.8,O2:0.2", 300, 100, 2);
  magnetic.magnetic_field = 20;
  magnetic.field_angle = 60;
  out.push_back({"air_magnetic", magnetic});
  RunConfig thermal = air("N2:0.78,O2:0.21,Ar:0.01", 120, 100, 2);
  thermal.thermal_gas = true;
  out.push_back({"air_three_gases_thermal", thermal});
  return out;
}

RunResult run_with(RunConfig c, const std::string& scheduler) {
  c.scheduler = scheduler;
  RunOptions opt;
  opt.keep_particles = true;
  return run(c, opt);
}

class CpuEngines : public testing::TestWithParam<Case> {};

TEST_P(CpuEngines, OpenmpEqualsSerial) {
  omp_set_num_threads(4);  // more threads than CI cores: interleavings differ from run to run
  const RunResult ref = run_with(GetParam().config, "cpu-serial");
  const RunResult omp = run_with(GetParam().config, "cpu-openmp");
  EXPECT_EQ(omp.counts.final, ref.counts.final);
  EXPECT_EQ(omp.counts.spawned, ref.counts.spawned);
  EXPECT_EQ(omp.counts.removed, ref.counts.removed);
  EXPECT_EQ(omp.counts.particle_steps, ref.counts.particle_steps);
  EXPECT_EQ(omp.counts.peak, ref.counts.peak);
  EXPECT_EQ(omp.digest, ref.digest);
  for (const std::string& line :
       omp.particles->differences(*ref.particles, 5, "cpu-openmp", "cpu-serial")) {
    ADD_FAILURE() << line;
  }
  EXPECT_GT(ref.counts.particle_steps, 0u);
  EXPECT_EQ(ref.counts.final, ref.counts.initial + ref.counts.spawned - ref.counts.removed);
}

INSTANTIATE_TEST_SUITE_P(Configurations, CpuEngines, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return i.param.name; });

TEST(CpuEngines, HeavyCasesSpawnMillions) {
  for (const Case& c : cases()) {
    if (std::string(c.name) != "toy_column" && std::string(c.name) != "mvp_heavy_spawning")
      continue;
    EXPECT_GT(run_with(c.config, "cpu-openmp").counts.spawned, 1'000'000u) << c.name;
  }
}

TEST(CpuEngines, PicExtinctionEndsWithNoParticles) {
  for (const Case& c : cases()) {
    if (std::string(c.name) == "pic_extinction") {
      const RunResult r = run_with(c.config, "cpu-serial");
      EXPECT_EQ(r.counts.final, 0u);
      EXPECT_GT(r.counts.removed, r.counts.initial);
    }
  }
}

TEST(CpuEngines, NoSplitsMeansInitTimesSteps) {
  RunConfig c = config("mvp", 1000, 200);
  c.split_chance = 0;
  const RunResult r = run_with(c, "cpu-serial");
  EXPECT_EQ(r.counts.particle_steps, 1000u * 200u);
  EXPECT_EQ(r.counts.final, 1000u);
  EXPECT_EQ(r.counts.spawned, 0u);
}

TEST(CpuEngines, SkippedChildrenTakeNoSteps) {
  RunConfig c = config("mvp", 1000, 200);
  c.split_chance = 2;
  c.skip_spawned = true;
  const RunResult r = run_with(c, "cpu-serial");
  EXPECT_EQ(r.counts.particle_steps, 1000u * 200u);
  EXPECT_GT(r.counts.spawned, 1000u);
}

TEST(CpuEngines, SameSeedSameDigestOtherSeedOtherDigest) {
  RunConfig c = config("mvp", 2000, 300);
  c.split_chance = 1;
  const uint64_t a = run_with(c, "cpu-serial").digest;
  EXPECT_EQ(run_with(c, "cpu-serial").digest, a);
  c.seed = 2;
  EXPECT_NE(run_with(c, "cpu-serial").digest, a);
}

class CapacityOverflow : public testing::TestWithParam<const char*> {};

TEST_P(CapacityOverflow, FailsWithTheNumbers) {
  RunConfig c = config("toy", 100, 2000);  // every particle splits at its first floor bounce
  c.capacity = 150;
  try {
    run_with(c, GetParam());
    FAIL() << "expected a CapacityError";
  } catch (const CapacityError& e) {
    EXPECT_EQ(e.capacity(), 150u);
    EXPECT_GT(e.needed(), 150u);
    EXPECT_NE(std::string(e.what()).find("--capacity is 150"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(CpuEngines, CapacityOverflow, testing::Values("cpu-serial", "cpu-openmp"));

TEST(CpuEngines, CapacityExactlyEnoughSucceeds) {
  RunConfig c = config("toy", 100, 800);  // one floor bounce each: 200 particles
  c.capacity = 200;
  for (const char* s : {"cpu-serial", "cpu-openmp"}) {
    EXPECT_EQ(run_with(c, s).counts.final, 200u) << s;
  }
}

}  // namespace
}  // namespace sb
