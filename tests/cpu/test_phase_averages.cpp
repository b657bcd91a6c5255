// The averages of a sim's observables over phases: the mean, and a standard error that grows where
// successive phases are correlated (blocks of phases), as `run` prints and its JSON holds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "harness/job/phase_averages.hpp"

namespace sb {
namespace {

double naive_error(const std::vector<double>& x) {
  double m = 0, s = 0;
  for (double v : x)
    m += v;
  m /= static_cast<double>(x.size());
  for (double v : x)
    s += (v - m) * (v - m);
  return std::sqrt(s / static_cast<double>(x.size() - 1) / static_cast<double>(x.size()));
}

TEST(PhaseAverages, IndependentPhasesGiveTheUsualStandardError) {
  std::mt19937 rng(3);
  std::normal_distribution<double> normal(5.0, 2.0);
  std::vector<double> x(256);
  for (double& v : x)
    v = normal(rng);
  const PhaseAverage a = blocked_mean(x);
  EXPECT_EQ(a.phases, 256u);
  EXPECT_NEAR(a.mean, 5.0, 4 * 2.0 / 16);
  // The largest over block sizes: at least the naive error, and near it (2 / sqrt(256) = 0.125).
  EXPECT_GE(a.error, naive_error(x));
  EXPECT_NEAR(a.error, 0.125, 0.06);
}

// Each of 16 independent values held for 8 phases: the naive error is sqrt(8) too small; blocks of
// 8 phases see the 16 values.
TEST(PhaseAverages, CorrelatedPhasesGetTheErrorOfTheirBlocks) {
  std::mt19937 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> values(16), x;
  for (double& v : values) {
    v = normal(rng);
    x.insert(x.end(), 8, v);
  }
  const PhaseAverage a = blocked_mean(x);
  EXPECT_GE(a.error, 0.99 * naive_error(values));
  EXPECT_GT(a.error, 2.5 * naive_error(x));
}

// A phase's own standard error (a name ending in _error) is not averaged: the blocked error over
// the phases stands for it.
TEST(PhaseAverages, TooFewPhasesHaveNoErrorAndTheDefaultIsTheSecondHalf) {
  EXPECT_TRUE(std::isnan(blocked_mean({1.0}).error));
  EXPECT_TRUE(std::isnan(blocked_mean({}).mean));
  EXPECT_EQ(average_start(10, std::nullopt), 5u);
  EXPECT_EQ(average_start(11, std::nullopt), 5u);
  EXPECT_EQ(average_start(10, 2u), 2u);
  const std::vector<Observables> phases = {{{"a", 100.0}, {"b", NAN}, {"a_error", 1.0}},
                                           {{"a", 1.0}, {"b", 2.0}, {"a_error", 1.0}},
                                           {{"a", 3.0}, {"b", NAN}, {"a_error", 1.0}}};
  const std::vector<PhaseAverage> out = phase_averages(phases, 1);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].name, "a");
  EXPECT_EQ(out[0].mean, 2.0);
  EXPECT_EQ(out[0].phases, 2u);
  EXPECT_EQ(out[1].mean, 2.0);  // the phases where it is a number
  EXPECT_EQ(out[1].phases, 1u);
}

}  // namespace
}  // namespace sb
