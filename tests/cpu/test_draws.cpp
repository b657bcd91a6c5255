// Step draws are a pure function of (seed, id, step); the caching cursor must not change them.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/draws.hpp"
#include "core/hash.hpp"

namespace sb {
namespace {

// The definition of core/draws.hpp, written out without the cache.
uint32_t reference_draw(DrawKey key, uint64_t id, uint32_t base, uint32_t t) {
  const uint32_t lane = (t - base) % 4;
  const Philox4x32Output w = philox4x32_10(
      {t - lane, 1u, static_cast<uint32_t>(id), static_cast<uint32_t>(id >> 32)}, key.key);
  const uint32_t words[4] = {w.w0, w.w1, w.w2, w.w3};
  return words[lane];
}

TEST(StepDraws, SequentialStepsMatchTheDefinition) {
  const DrawKey key = DrawKey::from_seed(0x1234567890ull);
  for (uint32_t base : {0u, 1u, 2u, 3u, 997u}) {
    StepDraws draws(key, 42, base);
    for (uint32_t t = base; t < base + 50; ++t) {
      ASSERT_EQ(draws.at(t), reference_draw(key, 42, base, t)) << "base " << base << " t " << t;
    }
  }
}

TEST(StepDraws, RandomAccessMatchesTheDefinition) {
  std::mt19937_64 rng(7);
  const DrawKey key = DrawKey::from_seed(99);
  StepDraws draws(key, 0xABCDEF0123456789ull, 10);
  for (int i = 0; i < 2000; ++i) {
    const uint32_t t = 10 + static_cast<uint32_t>(rng() % 1000);
    ASSERT_EQ(draws.at(t), reference_draw(key, 0xABCDEF0123456789ull, 10, t));
  }
}

TEST(StepDraws, DependOnSeedIdAndStep) {
  const DrawKey a = DrawKey::from_seed(1), b = DrawKey::from_seed(2);
  std::set<uint32_t> seen;
  for (uint64_t id = 0; id < 100; ++id) {
    for (uint32_t t = 0; t < 100; ++t)
      seen.insert(StepDraws(a, id, 0).at(t));
  }
  EXPECT_GT(seen.size(), 9990u);  // 10^4 words of 32 bits: a few collisions at most
  EXPECT_NE(StepDraws(a, 5, 0).at(3), StepDraws(b, 5, 0).at(3));
  // The high half of the seed is part of the key.
  EXPECT_NE(StepDraws(DrawKey::from_seed(1ull << 40), 5, 0).at(3), StepDraws(a, 5, 0).at(3));
}

TEST(UnitFloat, CoversZeroToBelowOne) {
  EXPECT_EQ(unit_float(0), 0.0f);
  EXPECT_LT(unit_float(0xFFFFFFFFu), 1.0f);
  EXPECT_EQ(unit_float(0x80000000u), 0.5f);
}

TEST(ChildId, DistinctForDistinctBirths) {
  std::set<uint64_t> ids;
  for (uint64_t parent = 0; parent < 300; ++parent) {
    for (uint32_t t = 0; t < 300; ++t)
      ids.insert(child_id(parent, t));
  }
  EXPECT_EQ(ids.size(), 300u * 300u);
  for (uint64_t parent = 0; parent < 300; ++parent)
    EXPECT_EQ(ids.count(parent), 0u);
}

}  // namespace
}  // namespace sb
