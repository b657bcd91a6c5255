// The deterministic logarithm against libm, the step's extra blocks against their definition,
// and the rejection samplers' distributions.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/det_math.hpp"
#include "core/fixed_sum.hpp"

namespace sb {
namespace {

// The device's conversion by shifts gives what a cast of ldexp(x, 64) gives on the host, for
// either sign, below and above one unit of 2^-64, and a sum is the same in any order.
TEST(FixedSum, IsTheTruncatedProductAndSumsInAnyOrder) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
  std::vector<double> xs = {
      0.0, -0.0, 1.0, -1.0, std::ldexp(1.0, -64), std::ldexp(1.0, -70), -std::ldexp(3.0, -66)};
  for (int e = -80; e <= 60; ++e) {
    for (int k = 0; k < 20; ++k)
      xs.push_back(std::ldexp(mantissa(rng), e));
  }
  FixedSum forward, backward;
  for (const double x : xs) {
    EXPECT_TRUE(FixedSum::of(x).bits == static_cast<Int128>(std::ldexp(x, 64))) << x;
    forward = forward + FixedSum::of(x);
  }
  for (auto it = xs.rbegin(); it != xs.rend(); ++it)
    backward = backward + FixedSum::of(*it);
  EXPECT_TRUE(forward.bits == backward.bits);
  EXPECT_EQ(FixedSum::of(0.75).value(), 0.75);
}

TEST(DetLog, MatchesStdLogOverManyDecades) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  double worst = 0;
  for (int e = -1020; e <= 1020; e += 3) {
    for (int k = 0; k < 200; ++k) {
      const double x = std::ldexp(mantissa(rng), e);
      const double ref = std::log(x);
      const double err = std::fabs(det_log(x) - ref) / std::max(std::fabs(ref), 1e-300);
      worst = std::max(worst, err);
    }
  }
  EXPECT_LT(worst, 1e-15);
}

TEST(DetLog, NearOneAndAtPowersOfTwo) {
  EXPECT_EQ(det_log(1.0), 0.0);
  for (double x : {1.0 + 1e-12, 1.0 - 1e-12, 0.9999, 1.0001, 1.41421356, 0.70710678}) {
    EXPECT_NEAR(det_log(x), std::log(x), 4e-16 * std::fabs(std::log(x))) << x;
  }
  for (int e = -60; e <= 60; ++e) {
    const double x = std::ldexp(1.0, e);
    EXPECT_NEAR(det_log(x), std::log(x), 2.5e-16 * std::fabs(std::log(x)) + 1e-300) << e;
  }
  EXPECT_NEAR(det_log(0x1p-53), -53 * std::log(2.0), 1e-14);
}

TEST(StepDrawBlocks, AreTheDefinitionsCounter) {
  const DrawKey key = DrawKey::from_seed(99);
  StepDraws draws(key, 0x123456789ull, 0);
  const StepDraw draw(draws, 77);
  for (uint32_t i = 0; i < 5; ++i) {
    const Philox4x32Output want = philox4x32_10({77u, 2u + i, 0x23456789u, 0x1u}, key.key);
    const Philox4x32Output got = draw.block(i);
    EXPECT_EQ(got.w0, want.w0);
    EXPECT_EQ(got.w3, want.w3);
  }
  EXPECT_EQ(draw.step(), 77u);
}

// Mean 0 per axis and <d_z^2> = 1/3; unit length.
TEST(IsotropicDirection, IsUniformOnTheSphere) {
  const DrawKey key = DrawKey::from_seed(3);
  double sum[3] = {0, 0, 0}, zz = 0;
  const int n = 200000;
  for (int k = 0; k < n; ++k) {
    StepDraws draws(key, static_cast<uint64_t>(k), 0);
    const StepDraw draw(draws, 5);
    WordStream words(draw, 0);
    double d[3];
    isotropic_direction(words, d);
    ASSERT_NEAR(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], 1.0, 1e-15);
    for (int a = 0; a < 3; ++a)
      sum[a] += d[a];
    zz += d[2] * d[2];
  }
  for (double s : sum)
    EXPECT_NEAR(s / n, 0.0, 5.0 / std::sqrt(3.0 * n));
  EXPECT_NEAR(zz / n, 1.0 / 3.0, 0.005);
}

TEST(NormalPair, HasUnitVariance) {
  const DrawKey key = DrawKey::from_seed(4);
  double s1 = 0, s2 = 0;
  const int n = 100000;
  for (int k = 0; k < n; ++k) {
    StepDraws draws(key, static_cast<uint64_t>(k), 0);
    const StepDraw draw(draws, 0);
    WordStream words(draw, 0);
    double a, b;
    normal_pair(words, a, b);
    s1 += a + b;
    s2 += a * a + b * b;
  }
  EXPECT_NEAR(s1 / (2 * n), 0.0, 0.01);
  EXPECT_NEAR(s2 / (2 * n), 1.0, 0.015);
}

}  // namespace
}  // namespace sb
