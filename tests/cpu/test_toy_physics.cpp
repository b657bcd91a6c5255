// The toy's rules, stated independently of sims/toy/box.hpp (seed 003 §3.1, docs/design.md §5).
#include <gtest/gtest.h>

#include "core/particle.hpp"
#include "sims/toy/toy.hpp"

namespace sb {
namespace {

using P = ToySim::Particle;

P particle(float x, float y, float vx, float vy, float w = 1.0f) {
  P p{x, y, vx, vy, w, ParticleTag::make(7, 0)};
  return p;
}

Fate step(P& p, P& child) {
  StepDraws draws(DrawKey::from_seed(1), p.tag.id(), 0);
  return advance<ToySim>(p, child, ToySim::Params{1, ToySim::Layout::kCenter}, draws, {0, 100});
}

TEST(Toy, FallsUnderGravity) {
  P p = particle(250, 250, 0, 0), child{};
  EXPECT_EQ(step(p, child), Fate::kAlive);
  const float vy = 0.0f - 9.82f * 0.01f * 1.0f;
  EXPECT_EQ(p.vy, vy);
  EXPECT_EQ(p.y, 250.0f + vy * 0.01f);
  EXPECT_EQ(p.x, 250.0f);
  EXPECT_EQ(p.tag.step, 1u);
}

TEST(Toy, NegativeWeightFallsUpwards) {
  P p = particle(250, 250, 0, 0, -1.0f), child{};
  step(p, child);
  EXPECT_GT(p.vy, 0.0f);
  EXPECT_GT(p.y, 250.0f);
}

TEST(Toy, FloorBounceReflectsAndSplits) {
  P p = particle(100, 0.05f, 0, -10), child{};
  ASSERT_EQ(step(p, child), Fate::kSpawned);
  const float vy = -10.0f - 9.82f * 0.01f;
  const float y = 0.05f + vy * 0.01f;  // below the floor
  ASSERT_LE(y, 0.0f);
  EXPECT_EQ(p.y, -y);
  EXPECT_EQ(p.vy, -vy);
  EXPECT_EQ(p.vx, 10.0f);                  // 10 further from zero
  EXPECT_EQ(p.x, 100.0f + 10.0f * 0.01f);  // then moves with it
  EXPECT_EQ(child.vx, -10.0f);             // parent's new vx - 20
  EXPECT_EQ(child.x, 100.0f + -10.0f * 0.01f);
  EXPECT_EQ(child.y, p.y);
  EXPECT_EQ(child.vy, p.vy);
  EXPECT_EQ(child.w, p.w);
}

TEST(Toy, SplitRuleForNegativeVx) {
  P p = particle(100, 0.01f, -5, -10), child{};
  ASSERT_EQ(step(p, child), Fate::kSpawned);
  EXPECT_EQ(p.vx, -15.0f);
  EXPECT_EQ(child.vx, 5.0f);
}

TEST(Toy, ChildIsTaggedFromParentAndStep) {
  P p = particle(100, 0.01f, 0, -10), child{};
  p.tag.step = 41;
  ASSERT_EQ(step(p, child), Fate::kSpawned);
  EXPECT_EQ(child.tag.id(), child_id(7, 41));
  EXPECT_EQ(child.tag.step, 42u);
  EXPECT_EQ(child.tag.first_step, 42u);
  EXPECT_EQ(child.tag.status, kAlive);
  EXPECT_EQ(p.tag.step, 42u);
}

TEST(Toy, CeilingReflectsWithoutSplitting) {
  P p = particle(100, 499.99f, 0, 10), child{};
  EXPECT_EQ(step(p, child), Fate::kAlive);
  const float vy = 10.0f - 9.82f * 0.01f;
  const float y = 499.99f + vy * 0.01f;
  ASSERT_GE(y, 500.0f);
  EXPECT_EQ(p.y, 500.0f - (y - 500.0f));
  EXPECT_EQ(p.vy, -vy);
}

TEST(Toy, SideWallsReflectXAndFlipVxAndWeight) {
  P right = particle(499.95f, 250, 10, 0), left = particle(0.05f, 250, -10, 0), child{};
  step(right, child);
  EXPECT_EQ(right.x, 500.0f - ((499.95f + 10.0f * 0.01f) - 500.0f));
  EXPECT_EQ(right.vx, -10.0f);
  EXPECT_EQ(right.w, -1.0f);
  step(left, child);
  EXPECT_EQ(left.x, -(0.05f + -10.0f * 0.01f));
  EXPECT_EQ(left.vx, 10.0f);
  EXPECT_EQ(left.w, -1.0f);
}

TEST(Toy, Layouts) {
  const ToySim::Params center{4, ToySim::Layout::kCenter}, column{4, ToySim::Layout::kColumn};
  const DrawKey key = DrawKey::from_seed(1);
  EXPECT_EQ(ToySim::initial(3, center, key).y, 250.0f);
  EXPECT_EQ(ToySim::initial(0, column, key).y, 1.0f);
  EXPECT_EQ(ToySim::initial(2, column, key).y, static_cast<float>(1.0 + 495.0 / 4 * 2));
  EXPECT_EQ(ToySim::initial(2, column, key).x, 250.0f);
  EXPECT_EQ(ToySim::initial(2, column, key).tag.id(), 2u);
}

}  // namespace
}  // namespace sb
