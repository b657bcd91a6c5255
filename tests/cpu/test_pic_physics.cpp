// pic's rules (seed 003 §3.4, docs/design.md §5), stated independently of sims/pic.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/errors.hpp"
#include "core/sim_state.hpp"
#include "sims/pic/pic.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb {
namespace {

using P = PicSim::Particle;
using testing_support::TempDir;

RunConfig pic_config(double collision_chance = -1) {
  RunConfig c;
  c.sim = "pic";
  sb::pic::poisson_steps().set(c, 1);
  sb::pic::mobility_steps().set(c, 10);
  if (collision_chance >= 0) sb::pic::collision_chance().set(c, collision_chance);
  return c;
}

P at(double x, double y, double z, double vx = 0, double vy = 0, double vz = 0) {
  return {x, y, z, vx, vy, vz, 0, 0, 0, ParticleTag::make(9, 0)};
}

Fate step(const PicSim::HostState& state, P& p, P& child) {
  StepDraws draws(DrawKey::from_seed(1), p.tag.id(), 0);
  return advance<PicSim>(p, child, state.params(), draws, {0, 10});
}

TEST(Pic, LeapfrogInDoubleWithTheCellAcceleration) {
  const PicSim::HostState state(make_setup<PicSim>(pic_config(0)));
  P p = at(2.5, 2.5, 2.5, 10, -20, 30), child{};
  p.ax = 1e6f;
  p.ay = -2e6f;
  p.az = 0.5f;
  ASSERT_EQ(step(state, p, child), Fate::kAlive);
  double vx = 10 - 1e6 * 1e-12 / 2;
  const double x = 2.5 + vx * 1e-12;
  vx -= 1e6 * 1e-12 / 2;
  EXPECT_EQ(p.vx, vx);
  EXPECT_EQ(p.x, x);
  EXPECT_EQ(p.vy, (-20 - -2e6 * 1e-12 / 2) - -2e6 * 1e-12 / 2);  // two half kicks
  EXPECT_EQ(p.tag.step, 1u);
}

TEST(Pic, LeavingTheGridIsDeath) {
  const PicSim::HostState state(make_setup<PicSim>(pic_config(0)));
  P low = at(1e-13, 2.5, 2.5, -1.0), high = at(2.5, 2.5, 5.12 - 1e-13, 0, 0, 1.0), child{};
  EXPECT_EQ(step(state, low, child), Fate::kDied);
  EXPECT_EQ(low.tag.status, kDead);
  EXPECT_EQ(step(state, high, child), Fate::kDied);
  P inside = at(1e-11, 2.5, 2.5, -1.0);  // moves 1e-12 m: still inside
  EXPECT_EQ(step(state, inside, child), Fate::kAlive);
}

// The level of energy e, and a check that its entry is the table's.
uint32_t level_of(double e, const std::vector<pic::Level>& table) {
  pic::Level entry{};
  const uint32_t level = pic::energy_level(e, table.data(), entry);
  EXPECT_EQ(entry.floor, table[level].floor) << e;
  EXPECT_EQ(entry.chances.split, table[level].chances.split) << e;
  return level;
}

TEST(Pic, EnergyLevelFollowsTheDefinitionAwayFromBoundaries) {
  const std::vector<double> floor = pic::level_floors();
  const std::vector<pic::Level> table = pic::level_table(pic::synthetic_cross_sections());
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> decades(-7.0, 17.0);
  for (int i = 0; i < 100000; ++i) {
    const double e = std::pow(10.0, decades(rng));
    const double exact = (std::log10(e) + 6) * pic::kLevels / 22;
    if (std::abs(exact - std::round(exact)) < 1e-6) continue;  // a boundary: the table decides
    const double clamped = std::min(std::max(std::trunc(exact), 0.0), pic::kLevels - 1.0);
    ASSERT_EQ(level_of(e, table), static_cast<uint32_t>(clamped)) << e;
  }
  EXPECT_EQ(level_of(0.0, table), 0u);
  EXPECT_EQ(level_of(1e-30, table), 0u);
  EXPECT_EQ(level_of(1e30, table), pic::kLevels - 1);
  EXPECT_EQ(level_of(std::numeric_limits<double>::infinity(), table), pic::kLevels - 1);
  EXPECT_EQ(level_of(std::numeric_limits<double>::quiet_NaN(), table), 0u);
  for (uint32_t level : {1u, 2u, 4545u, 9999u}) {
    EXPECT_EQ(level_of(floor[level], table), level);
    EXPECT_EQ(level_of(std::nextafter(floor[level], 0.0), table), level - 1);
  }
}

TEST(Pic, EnergyLevelWithAHintIsTheLevelWithout) {
  const std::vector<pic::Level> table = pic::level_table(pic::synthetic_cross_sections());
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> decades(-7.0, 17.0);
  std::uniform_int_distribution<uint32_t> any_level(0, pic::kLevels - 1);
  for (int i = 0; i < 20000; ++i) {
    const double e = std::pow(10.0, decades(rng));
    pic::Level plain{};
    const uint32_t expected = pic::energy_level(e, table.data(), plain);
    for (uint32_t hint : {expected, expected > 0 ? expected - 1 : 1, any_level(rng)}) {
      pic::Level entry = table[hint];
      ASSERT_EQ(pic::energy_level(e, table.data(), hint, entry), expected) << e << " " << hint;
      EXPECT_EQ(entry.floor, plain.floor);
    }
  }
  pic::Level entry = table[0];
  EXPECT_EQ(pic::energy_level(std::numeric_limits<double>::quiet_NaN(), table.data(), 0, entry),
            0u);
  entry = table[pic::kLevels - 1];
  EXPECT_EQ(pic::energy_level(std::numeric_limits<double>::infinity(), table.data(),
                              pic::kLevels - 1, entry),
            pic::kLevels - 1);
}

TEST(Pic, LevelTableJoinsFloorsAndThresholds) {
  const pic::CrossSections cs = pic::synthetic_cross_sections();
  const std::vector<double> floor = pic::level_floors();
  const std::vector<pic::Chances> chances = pic::chance_thresholds(cs);
  const std::vector<pic::Level> table = pic::level_table(cs);
  ASSERT_EQ(table.size(), pic::kLevels);
  for (uint32_t level : {0u, 1u, 5000u, pic::kLevels - 2}) {
    EXPECT_EQ(table[level].floor, floor[level]);
    EXPECT_EQ(table[level].ceiling, floor[level + 1]);
    EXPECT_EQ(table[level].chances.collide, chances[level].collide);
  }
  EXPECT_EQ(table.back().ceiling, std::numeric_limits<double>::infinity());
}

TEST(Pic, SplitReversesTheParentAndCopiesTheChild) {
  const PicSim::HostState state(make_setup<PicSim>(pic_config(0)));
  std::vector<pic::Level> always = state.levels();  // split = 100 %: every draw is below 2^32
  for (pic::Level& level : always)
    level.chances = {uint64_t{1} << 32, uint64_t{1} << 32};
  P p = at(2.5, 2.5, 2.5, 1e3, 2e3, 3e3), child{};
  StepDraws draws(DrawKey::from_seed(1), p.tag.id(), 0);
  ASSERT_EQ(advance<PicSim>(p, child, PicSim::Params{always.data()}, draws, {0, 10}),
            Fate::kSpawned);
  EXPECT_EQ(child.vx, 1e3);
  EXPECT_EQ(p.vx, -1e3);
  EXPECT_EQ(p.vz, -3e3);
  EXPECT_EQ(child.x, p.x);
  EXPECT_EQ(child.tag.id(), child_id(9, 0));
  EXPECT_EQ(child.tag.step, 1u);
}

TEST(Pic, CollisionChancesSplitAndRemoveInHalves) {
  const PicSim::HostState state(make_setup<PicSim>(pic_config(60)));  // 30 % split, 30 % remove
  int spawned = 0, died = 0;
  constexpr int kN = 100000;
  for (int i = 0; i < kN; ++i) {
    P p = at(2.5, 2.5, 2.5, 1e3, 0, 0), child{};
    p.tag = ParticleTag::make(static_cast<uint64_t>(i), 0);
    const Fate f = step(state, p, child);
    spawned += f == Fate::kSpawned;
    died += f == Fate::kDied;
  }
  EXPECT_NEAR(spawned, 0.3 * kN, 800);  // binomial sd 145
  EXPECT_NEAR(died, 0.3 * kN, 800);
}

TEST(Pic, SyntheticTableIsTheSeedsFormula) {
  const pic::CrossSections cs = pic::synthetic_cross_sections();
  ASSERT_EQ(cs.split.size(), pic::kLevels);
  EXPECT_EQ(cs.split[0], 0.0);
  EXPECT_DOUBLE_EQ(cs.split[1000],
                   (std::sin(std::pow(1000.0, 2.6) / 5e7) + 1.01) * std::pow(1000.0, 0.1));
  EXPECT_EQ(cs.remove[1000], cs.split[1000]);
  const std::vector<pic::Chances> t = pic::chance_thresholds(cs);
  EXPECT_EQ(t[1000].split, percent_threshold(cs.split[1000]));
  EXPECT_EQ(t[1000].collide, percent_threshold(2 * cs.split[1000]));
}

TEST(Pic, InitialParticlesFillTheCentralCubeAtRest) {
  const PicSim::HostState state(make_setup<PicSim>(pic_config()));
  for (uint64_t i = 0; i < 5000; ++i) {
    const P p = PicSim::initial(i, state.params(), DrawKey::from_seed(3));
    for (double v : {p.x, p.y, p.z}) {
      ASSERT_GE(v, 226 * 1e-2);
      ASSERT_LT(v, 288 * 1e-2);
    }
    EXPECT_EQ(p.vx, 0.0);
    EXPECT_EQ(p.tag.id(), i);
  }
}

TEST(Pic, GridAccelerationFromNeighbourCounts) {
  PicSim::HostState state(make_setup<PicSim>(pic_config(0)));
  // Two particles in cell (101, 100, 100), one in (99, 100, 100), one in (100, 100, 100).
  std::vector<P> ps = {at(1.015, 1.005, 1.005), at(1.016, 1.005, 1.005), at(0.995, 1.005, 1.005),
                       at(1.005, 1.005, 1.005)};
  state.before_phase(ps, {0, 10});
  const double k = pic::acceleration_constant();
  EXPECT_NEAR(k, 2.53e6, 0.01e6);                            // e^2 / (4 pi eps0 h^2 m_e)
  EXPECT_EQ(ps[3].ax, static_cast<float>(k * (2.0 - 1.0)));  // x+1 holds two, x-1 one
  EXPECT_EQ(ps[3].ay, 0.0f);
  EXPECT_EQ(ps[0].ax, static_cast<float>(k * (0.0 - 1.0)));  // x+1 empty, x-1 holds one
  EXPECT_EQ(ps[0].ax, ps[1].ax);                             // same cell, same acceleration
  EXPECT_EQ(ps[2].ax, static_cast<float>(k * (1.0 - 0.0)));
}

std::string read_error(const std::string& path) {
  try {
    pic::read_cross_sections(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(CrossSectionFile, RoundTripsAndNamesTheBadLine) {
  TempDir dir;
  const pic::CrossSections synthetic = pic::synthetic_cross_sections();
  const std::string good = dir.write("good.txt", pic::format_cross_sections(synthetic));
  const pic::CrossSections back = pic::read_cross_sections(good);
  EXPECT_EQ(back.split, synthetic.split);
  EXPECT_EQ(back.remove, synthetic.remove);

  std::string lines;
  for (int i = 0; i < 9999; ++i)
    lines += "1 2\n";
  EXPECT_NE(read_error(dir.write("short.txt", lines))
                .find("short.txt:10000: the file ends after 9999 lines"),
            std::string::npos);
  EXPECT_NE(read_error(dir.write("word.txt", "1 2\nfast 2\n"))
                .find("word.txt:2: 'fast 2' is not two numbers"),
            std::string::npos);
  EXPECT_NE(read_error(dir.write("one.txt", "1\n")).find("one.txt:1: '1' is not two numbers"),
            std::string::npos);
  EXPECT_NE(
      read_error(dir.write("neg.txt", "1 2\n3 -4\n")).find("neg.txt:2: -4 is not a percentage"),
      std::string::npos);
  EXPECT_NE(read_error(dir.write("big.txt", "101 2\n")).find("big.txt:1: 101 is not a percentage"),
            std::string::npos);
  EXPECT_NE(read_error(dir.path("missing.txt")).find("cannot read"), std::string::npos);
}

// A table of kLevels lines "1 2", with `line` (from 1) replaced by `text`.
std::string table_with(size_t line, const std::string& text) {
  std::string out;
  for (size_t i = 1; i <= pic::kLevels; ++i)
    out += (i == line ? text : std::string("1 2")) + "\n";
  return out;
}

TEST(CrossSectionFile, NumbersAreDecimalOnly) {
  TempDir dir;
  for (const std::string bad :
       {"0x10 1", "nan 1", "1 inf", "-inf 1", "1e400 1", "+1 2", "1 2 3", "1;2", "1e-400 1"}) {
    const std::string error = read_error(dir.write("t.txt", table_with(7, bad)));
    EXPECT_NE(error.find("t.txt:7: '" + bad +
                         "' is not two numbers; accepted: 10000 lines of two "
                         "percentages (split remove) in decimal"),
              std::string::npos)
        << error;
  }
  // Decimal forms, separated by spaces, tabs or a comma, with a Windows line end.
  const pic::CrossSections ok =
      pic::read_cross_sections(dir.write("ok.txt", table_with(3, " 2.5e-1,\t-0\r")));
  EXPECT_EQ(ok.split[2], 0.25);
  EXPECT_EQ(ok.remove[2], 0.0);
}

TEST(CrossSectionFile, SplitAndRemoveAboveAHundredIsRefused) {
  TempDir dir;
  EXPECT_NE(read_error(dir.write("t.txt", table_with(12, "60 50")))
                .find("t.txt:12: split 60 + remove 50 is 110 %, above 100"),
            std::string::npos);
  EXPECT_EQ(pic::read_cross_sections(dir.write("full.txt", table_with(12, "60 40"))).remove[11],
            40.0);
}

TEST(CrossSectionFile, AByteOrderMarkIsSkipped) {
  TempDir dir;
  const pic::CrossSections cs =
      pic::read_cross_sections(dir.write("bom.txt", "\xef\xbb\xbf" + table_with(1, "3 4")));
  EXPECT_EQ(cs.split[0], 3.0);
  EXPECT_EQ(cs.split.size(), pic::kLevels);
}

TEST(CrossSectionFile, EchoedLinesAreShortAndPrintable) {
  TempDir dir;
  const std::string error =
      read_error(dir.write("t.txt", table_with(2, "1\x01\x1b[31m" + std::string(500, 'x'))));
  EXPECT_NE(error.find("t.txt:2: '1\\x01\\x1b[31m" + std::string(67, 'x') + "...' is not two"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find('\x1b'), std::string::npos);
}

TEST(CrossSectionFile, ADirectoryOrADeviceIsNamedAsSuch) {
  TempDir dir;
  EXPECT_NE(read_error(dir.path("")).find("the cross-section file is a directory"),
            std::string::npos);
  // Read as text, /dev/zero would never end.
  EXPECT_NE(read_error("/dev/zero").find("/dev/zero: the cross-section file is a device"),
            std::string::npos);
  EXPECT_NE(read_error(dir.write("big.txt", std::string(3000000, '1')))
                .find("the cross-section file has 3000000 bytes; accepted: at most"),
            std::string::npos);
}

TEST(CrossSectionFile, ConstantChanceAndFileAreExclusive) {
  RunConfig c = pic_config(30);
  sb::pic::cross_section().set(c, "table.txt");
  EXPECT_THROW(make_setup<PicSim>(c), UsageError);
}

// The GPU's grid work counts on any grid that holds every particle with a halo (a larger one
// kept from phase to phase, sims/pic/device_state.cuh): the accelerations wherever a particle
// reads are those of the grid around the box alone, bit for bit.
TEST(Pic, AnyGridHoldingTheParticlesGivesTheBoxsAccelerations) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> cell(240, 250);
  std::vector<std::array<int, 3>> cells(500);
  pic::CellBox box;
  for (auto& c : cells) {
    c = {cell(rng), cell(rng), cell(rng) + 3};
    box = box.merged(pic::CellBox::of(c[0], c[1], c[2]));
  }
  const pic::LocalGrid tight(box), wide(box.grown(8));
  EXPECT_TRUE(wide.holds(box));
  EXPECT_FALSE(tight.holds(box.grown(1)));  // its interior is the box alone
  EXPECT_TRUE(tight.holds(box));
  const auto counts_on = [&](const pic::LocalGrid& g) {
    std::vector<uint32_t> counts(g.cells(), 0);
    for (const auto& c : cells)
      ++counts[g.index(c[0], c[1], c[2])];
    return counts;
  };
  const std::vector<uint32_t> on_tight = counts_on(tight), on_wide = counts_on(wide);
  const double k = pic::acceleration_constant();
  for (const auto& c : cells) {
    float a[3], b[3];
    pic::cell_acceleration(tight, on_tight.data(), k, c[0], c[1], c[2], a);
    pic::cell_acceleration(wide, on_wide.data(), k, c[0], c[1], c[2], b);
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(a[i], b[i]);
  }
}

}  // namespace
}  // namespace sb
