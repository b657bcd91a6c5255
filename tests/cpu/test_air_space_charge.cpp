// air's --space-charge (sims/air/space_charge.hpp; docs/physics.md, "air with --space-charge"):
// the variant is chosen by the flag, the ions are the births of the phase before, a neutral swarm
// has no field, attached electrons leave negative ions, and separated charges give Coulomb's
// field.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "fields/green.hpp"
#include "schedulers/registry.hpp"
#include "sims/air/air_family.hpp"
#include "sims/catalog.hpp"
#include "tests/support/air_config.hpp"

namespace sb {
namespace {

using air::ChargedParticle;

RunConfig space_charge_config(uint64_t grid) {
  RunConfig c;
  c.sim = "air";
  c.scheduler = "cpu-serial";
  c.init_n = 10;
  c = with_air(c, "N2:1", 400, 3);
  air::space_charge().set(c, true);
  fields::grid().set(c, grid);
  return c;
}

ChargedParticle electron(double x, double y, double z, double bx, double by, double bz,
                         uint32_t first_step) {
  ChargedParticle p{};
  p.x = x;
  p.y = y;
  p.z = z;
  p.bx = bx;
  p.by = by;
  p.bz = bz;
  p.tag = ParticleTag::make(0, first_step);
  return p;
}

std::array<double, 3> field_at(const air::HostSpaceCharge& f, double x, double y, double z) {
  std::array<double, 3> e{};
  air::space_charge_at(f.view(), x, y, z, e.data());
  return e;
}

TEST(AirSpaceCharge, TheFlagChoosesTheVariantAndTheMeshOptionsNeedIt) {
  RunConfig c = space_charge_config(16);
  EXPECT_EQ(AirFamily::variant(c), AirFamily::Variants::index_of<AirSpaceChargeSim>());
  find_sim("air").check(c);
  fields::grid().set(c, 100);
  try {
    find_sim("air").check(c);
    ADD_FAILURE() << "--grid 100 was taken";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--grid: 100 is not a power of two; accepted: 16, 32, 64, 128, 256, 512 (the FFT "
              "solve's mesh sizes)");
  }
  // One --grid for pic and air (fields/mesh_nodes.hpp), which takes up to pic's 1024: air's open
  // solve, on twice as many nodes per side, stops at 512.
  fields::grid().set(c, 1024);
  try {
    find_sim("air").check(c);
    ADD_FAILURE() << "--grid 1024 was taken by air";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--grid: 1024 is more nodes than this sim's field takes; accepted: 16, 32, 64, 128, "
              "256, 512 (the FFT solve's mesh sizes)");
  }
  RunConfig plain = with_air(RunConfig{}, "N2:1", 400, 3);
  plain.sim = "air";
  EXPECT_EQ(AirFamily::variant(plain), AirFamily::Variants::index_of<AirSim>());
  fields::field_solver().set(plain, "host");
  try {
    AirFamily::variant(plain);
    ADD_FAILURE() << "--field-solver was taken without --space-charge";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--field-solver: host applies with --space-charge only; space charge is off");
  }
}

// The variant counts air's flights, not the steps of the window: an electron parked at the
// phase end by its 10th flight took 10 steps (the engines' unqualified call), and a run's count
// stays well below electrons x window, as air's does (AirSteps.ParticleStepsAreFlightsNotWindows).
TEST(AirSpaceCharge, ParticleStepsAreFlightsNotWindows) {
  ChargedParticle p{};
  p.tag = ParticleTag::make(0, 0);
  p.tag.step = 100;
  p.parked = 9;
  EXPECT_EQ(steps_in_phase(p, PhaseWindow{0, 100}), 10u);
  RunConfig c = space_charge_config(16);
  c.init_n = 100;
  const RunResult r = run(c);
  const uint64_t windows = uint64_t{3} * 100 * make_setup<AirSim>(c)->phases().steps;
  EXPECT_LT(r.counts.particle_steps, windows * 3 / 4);
  EXPECT_GT(r.counts.particle_steps, 3u * 100u);
}

// The ions before phase w are the births of the phase before (first step, birth + 1, in
// (w.start - S, w.start]), and the initial electrons before the first phase.
TEST(AirSpaceCharge, IonsAreTheBirthsOfThePhaseBefore) {
  constexpr uint32_t S = 100;
  const auto pending = [](uint32_t first_step, uint32_t start) {
    return air::ion_pending(electron(0, 0, 0, 0, 0, 0, first_step), {start, start + S}, S);
  };
  EXPECT_TRUE(pending(0, 0));       // initial, first phase
  EXPECT_FALSE(pending(0, S));      // initial, its ion already counted
  EXPECT_TRUE(pending(1, S));       // born in step 0
  EXPECT_TRUE(pending(S, S));       // born in step S - 1
  EXPECT_FALSE(pending(S + 1, S));  // born in step S: in the phase that starts now
  EXPECT_FALSE(pending(S, 2 * S));  // counted at S
  EXPECT_TRUE(pending(S + 1, 2 * S));
}

// Electrons at their birth points, each on its ion: the deposits cancel node by node (the same
// stencil, the same fixed-point units), and the field is exactly zero.
TEST(AirSpaceCharge, ANeutralSwarmHasNoField) {
  air::HostSpaceCharge field(16);
  std::vector<ChargedParticle> ps;
  for (int i = 0; i < 50; ++i) {
    const double x = 1e-4 * std::sin(i), y = 2e-4 * std::cos(3 * i), z = 1e-4 * i / 50.0;
    ps.push_back(electron(x, y, z, x, y, z, 0));
  }
  field.update(ps, {0, 100}, 100);
  for (const ChargedParticle& p : ps) {
    const auto e = field_at(field, p.x, p.y, p.z);
    EXPECT_EQ(e[0], 0.0);
    EXPECT_EQ(e[1], 0.0);
    EXPECT_EQ(e[2], 0.0);
  }
}

// An electron attached in the phase before deposits as an electron once more, then stays as a
// negative ion where it attached: electrons on their ions, every other one attached, make no
// field before the next phase, nor before the one after, when the attached ones are gone.
TEST(AirSpaceCharge, AttachedElectronsLeaveNegativeIons) {
  air::HostSpaceCharge field(16);
  std::vector<ChargedParticle> ps, alive;
  for (int i = 0; i < 50; ++i) {
    const double x = 1e-4 * std::sin(i), y = 2e-4 * std::cos(3 * i), z = 1e-4 * i / 50.0;
    ps.push_back(electron(x, y, z, x, y, z, 0));
    ps.back().attached = i % 2;
    if (i % 2 == 0) alive.push_back(ps.back());
  }
  const auto expect_no_field = [&field, &ps](const char* when) {
    for (const ChargedParticle& p : ps) {
      const auto e = field_at(field, p.x, p.y, p.z);
      EXPECT_EQ(e[0], 0.0) << when;
      EXPECT_EQ(e[1], 0.0) << when;
      EXPECT_EQ(e[2], 0.0) << when;
    }
  };
  field.update(ps, {0, 100}, 100);
  expect_no_field("with the attached electrons");
  field.update(alive, {100, 200}, 100);
  expect_no_field("with their negative ions");
}

// N electrons at A whose ions stand at B, 2d away along z: halfway, each charge pulls or pushes
// along B to A with e N / (4 pi eps0 d^2), so the field there is twice that, towards A. On a
// 64^3 mesh around the pair the midpoint lies 21 cells from each charge, where the mesh's
// smoothing of a point charge changes its field by well under 1 % (tolerance 1 %). The mesh's
// spacing is not the solver's (the unit mesh's, space_charge.hpp): the test checks that scaling.
TEST(AirSpaceCharge, SeparatedChargesGiveCoulombsField) {
  constexpr int kN = 1000;
  constexpr double d = 1e-3;  // m
  const double a[3] = {2e-3, -1e-3, 5e-3};
  std::vector<ChargedParticle> ps(kN, electron(a[0], a[1], a[2], a[0], a[1], a[2] - 2 * d, 0));
  air::HostSpaceCharge field(64);
  field.update(ps, {0, 100}, 100);
  const auto e = field_at(field, a[0], a[1], a[2] - d);
  const double want =
      2 * kN * air::kElementaryCharge / (4 * fields::kPi * fields::kEpsilon0 * d * d);
  EXPECT_NEAR(e[2], want, 0.01 * want);  // +z: from the ions at B towards the electrons at A
  EXPECT_NEAR(e[0], 0.0, 1e-6 * want);
  EXPECT_NEAR(e[1], 0.0, 1e-6 * want);
}

}  // namespace
}  // namespace sb
