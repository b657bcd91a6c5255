// Precision as a compile-time sim variant (core/precision.hpp): double keeps the digests of the
// sims before it, --precision selects the variant, each precision has its own digest, and what
// mixed keeps in double matters (docs/physics.md, "Reduced precision").
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/errors.hpp"
#include "core/precision.hpp"
#include "schedulers/registry.hpp"
#include "sims/registry.hpp"
#include "tests/support/engine_cases.hpp"

namespace sb {
namespace {

RunConfig on_cpu(RunConfig c, const char* precision) {
  c.scheduler = "cpu-serial";
  precision::parameter().set(c, precision);
  return c;
}

RunConfig air_magnetic_thermal() {
  RunConfig c = engine_cases::air("N2:0.78,O2:0.21,Ar:0.01", 300, 100, 2);
  air::magnetic_field().set(c, 20);
  air::field_angle().set(c, 60);
  air::thermal_gas().set(c, true);
  return c;
}

// Digests of cpu-serial runs in double, pic's from before reduced precision, air's from since
// its electrons carry the start of their paths (the flux averages, docs/physics.md): the double
// variants' steps stay those steps, bit for bit.
TEST(Precision, DoubleKeepsTheDigestsOfBeforeReducedPrecision) {
  EXPECT_EQ(run(on_cpu(engine_cases::pic(20000, 3, 300, -1), "double")).digest,
            0x5229979cfd87707dull);
  EXPECT_EQ(run(on_cpu(engine_cases::air("N2:1", 800, 50, 3), "double")).digest,
            0x0d431ea7f7078a0eull);
  EXPECT_EQ(run(on_cpu(air_magnetic_thermal(), "double")).digest, 0x7ea415ca14295c6bull);
}

TEST(Precision, SelectsTheVariant) {
  RunConfig pic = engine_cases::pic(10, 1, 10, 0);
  EXPECT_EQ(PicFamily::variant(pic), PicFamily::Variants::index_of<PicSim>());
  precision::parameter().set(pic, "mixed");
  EXPECT_EQ(PicFamily::variant(pic), PicFamily::Variants::index_of<PicSimIn<precision::Mixed>>());
  precision::parameter().set(pic, "single");
  EXPECT_EQ(PicFamily::variant(pic), PicFamily::Variants::index_of<PicSimIn<precision::Single>>());
  RunConfig air = engine_cases::air("N2:1", 100, 10, 1);
  EXPECT_EQ(AirFamily::variant(air), AirFamily::Variants::index_of<AirSim>());
  precision::parameter().set(air, "mixed");
  EXPECT_EQ(AirFamily::variant(air), AirFamily::Variants::index_of<AirSimIn<precision::Mixed>>());
  precision::parameter().set(air, "single");
  EXPECT_EQ(AirFamily::variant(air), AirFamily::Variants::index_of<AirSimIn<precision::Single>>());
}

TEST(Precision, TheFieldVariantsAreDoubleOnly) {
  RunConfig pic = engine_cases::pic(10, 1, 10, 0);
  pic::field().set(pic, "poisson");
  precision::parameter().set(pic, "double");
  EXPECT_EQ(PicFamily::variant(pic), PicFamily::Variants::index_of<PicPoissonSim>());
  precision::parameter().set(pic, "single");
  EXPECT_THROW(PicFamily::variant(pic), UsageError);
  RunConfig air = engine_cases::air("N2:1", 100, 10, 1);
  air::space_charge().set(air, true);
  precision::parameter().set(air, "mixed");
  EXPECT_THROW(AirFamily::variant(air), UsageError);
}

// The same run in three precisions: three digests, the same initial population, and runs of the
// same size (reduced precision changes trajectories, not the model).
TEST(Precision, EachPrecisionHasItsOwnDigest) {
  for (const RunConfig& base : {engine_cases::pic(2000, 2, 150, 30), air_magnetic_thermal()}) {
    const RunResult d = run(on_cpu(base, "double"));
    std::set<uint64_t> digests = {d.digest};
    for (const char* p : {"mixed", "single"}) {
      const RunResult r = run(on_cpu(base, p));
      digests.insert(r.digest);
      EXPECT_EQ(r.counts.initial, d.counts.initial) << base.sim << " " << p;
      EXPECT_GT(r.counts.particle_steps, d.counts.particle_steps / 2) << base.sim << " " << p;
      EXPECT_LT(r.counts.particle_steps, d.counts.particle_steps * 2) << base.sim << " " << p;
    }
    EXPECT_EQ(digests.size(), 3u) << base.sim;
  }
}

// A pic electron at 2.5 m moving 10^-8 m per step: below half a float's ulp there (1.2 10^-7 m),
// so single precision loses the drift at every step, while mixed, whose positions are double,
// keeps it.
template <class P>
double drift_after(uint32_t steps) {
  using Sim = PicSimIn<P>;
  const pic::Setup setup(engine_cases::pic(1, 1, 10, 0));
  const pic::Params prm{setup.levels().data()};
  typename Sim::Particle p{};
  p.x = p.y = p.z = static_cast<typename P::Coordinate>(2.5);
  p.vx = static_cast<typename P::Real>(1e4);  // m/s: 10^-8 m per step of 10^-12 s
  p.tag = ParticleTag::make(1, 0);
  typename Sim::Particle child{};
  StepDraws draws(DrawKey::from_seed(1), p.tag.id(), 0);
  for (uint32_t i = 0; i < steps; ++i) {
    EXPECT_EQ(advance<Sim>(p, child, prm, draws, {0, steps}), Fate::kAlive);
  }
  return static_cast<double>(p.x) - 2.5;
}

TEST(Precision, MixedKeepsTheDriftThatSingleLoses) {
  EXPECT_NEAR(drift_after<precision::Double>(100), 1e-6, 1e-12);
  EXPECT_NEAR(drift_after<precision::Mixed>(100), 1e-6, 1e-12);
  EXPECT_EQ(drift_after<precision::Single>(100), 0.0);
}

}  // namespace
}  // namespace sb
