// mvp: the toy's motion, a split with a fixed chance per step instead of at the floor.
#include <gtest/gtest.h>

#include "core/particle.hpp"
#include "sims/mvp/mvp.hpp"

namespace sb {
namespace {

using P = MvpSim::Particle;

MvpSim::Params params(double chance, bool skip_spawned = false) {
  RunConfig c;
  sb::mvp::split_chance().set(c, chance);
  sb::mvp::skip_spawned().set(c, skip_spawned);
  return MvpSim::params(c);
}

TEST(Mvp, ChanceBecomesAThresholdOnTheDrawWord) {
  EXPECT_EQ(params(0).split_threshold, 0u);
  EXPECT_EQ(params(100).split_threshold, 1ull << 32);
  EXPECT_EQ(params(50).split_threshold, 1ull << 31);
  EXPECT_EQ(params(0.02).split_threshold, 858994u);  // ceil(0.0002 * 2^32): draw < 858993.46
}

// Steps `n` particles one step each at the given chance; returns how many split.
int splits(double chance, int n) {
  const MvpSim::Params prm = params(chance);
  int count = 0;
  for (int i = 0; i < n; ++i) {
    P p = MvpSim::initial(static_cast<uint64_t>(i), prm, DrawKey::from_seed(5)), child{};
    StepDraws draws(DrawKey::from_seed(5), p.tag.id(), 0);
    count += advance<MvpSim>(p, child, prm, draws, {0, 10}) == Fate::kSpawned ? 1 : 0;
  }
  return count;
}

TEST(Mvp, SplitsWithTheGivenChance) {
  EXPECT_EQ(splits(0, 10000), 0);
  EXPECT_EQ(splits(100, 10000), 10000);
  const int n = 100000, s = splits(10, n);  // binomial: mean 10^4, sd 95
  EXPECT_NEAR(s, 10000, 500);
}

TEST(Mvp, ChildFollowsTheToyRuleFromTheMovedParent) {
  const MvpSim::Params prm = params(100);
  P p{200, 300, 5, 0, 1, ParticleTag::make(3, 0)}, child{};
  StepDraws draws(DrawKey::from_seed(1), 3, 0);
  ASSERT_EQ(advance<MvpSim>(p, child, prm, draws, {0, 10}), Fate::kSpawned);
  const float vy = 0.0f - 9.82f * 0.01f;
  EXPECT_EQ(child.y, 300.0f + vy * 0.01f);  // after this step's vertical motion
  EXPECT_EQ(child.vy, vy);
  EXPECT_EQ(p.vx, 15.0f);
  EXPECT_EQ(child.vx, -5.0f);
  EXPECT_EQ(child.x, 200.0f + -5.0f * 0.01f);  // from the parent's x before it moves
  EXPECT_EQ(p.x, 200.0f + 15.0f * 0.01f);
  EXPECT_EQ(child.tag.step, 1u);
}

TEST(Mvp, SkippedChildrenAreBornFinished) {
  const MvpSim::Params prm = params(100, /*skip_spawned=*/true);
  P p{200, 300, 0, 0, 1, ParticleTag::make(3, 0)}, child{};
  StepDraws draws(DrawKey::from_seed(1), 3, 0);
  ASSERT_EQ(advance<MvpSim>(p, child, prm, draws, {0, 10}), Fate::kSpawned);
  EXPECT_EQ(child.tag.step, 10u);
  EXPECT_EQ(child.tag.first_step, 10u);
}

TEST(Mvp, InitialPositionsAreUniformInTheInnerBoxAndDependOnTheSeed) {
  const MvpSim::Params prm = params(0);
  double sum_x = 0;
  for (uint64_t i = 0; i < 10000; ++i) {
    const P p = MvpSim::initial(i, prm, DrawKey::from_seed(11));
    ASSERT_GE(p.x, 1.0f);
    ASSERT_LT(p.x, 499.0f);
    ASSERT_GE(p.y, 1.0f);
    ASSERT_LT(p.y, 499.0f);
    EXPECT_EQ(p.vx, 0.0f);
    EXPECT_EQ(p.w, 1.0f);
    sum_x += p.x;
  }
  EXPECT_NEAR(sum_x / 10000, 250.0, 5.0);
  EXPECT_NE(MvpSim::initial(0, prm, DrawKey::from_seed(11)).x,
            MvpSim::initial(0, prm, DrawKey::from_seed(12)).x);
}

}  // namespace
}  // namespace sb
