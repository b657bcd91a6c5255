#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/diff.hpp"
#include "core/digest.hpp"
#include "sims/toy/box.hpp"

namespace sb {
namespace {

std::vector<box::Particle> some_particles(size_t n) {
  std::vector<box::Particle> ps;
  for (size_t i = 0; i < n; ++i) {
    box::Particle p = box::at_rest(static_cast<float>(i), 2.0f * static_cast<float>(i));
    p.tag = ParticleTag::make(i * 7 + 1, static_cast<uint32_t>(i % 5));
    ps.push_back(p);
  }
  return ps;
}

TEST(Digest, IgnoresOrder) {
  std::vector<box::Particle> ps = some_particles(1000);
  const uint64_t d = digest_of(ps);
  std::shuffle(ps.begin(), ps.end(), std::mt19937(3));
  EXPECT_EQ(digest_of(ps), d);
}

TEST(Digest, SeesEveryBitOfEveryField) {
  const std::vector<box::Particle> ps = some_particles(10);
  const uint64_t d = digest_of(ps);
  for (size_t byte = 0; byte < sizeof(box::Particle); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<box::Particle> changed = ps;
      reinterpret_cast<unsigned char*>(&changed[4])[byte] ^= static_cast<unsigned char>(1 << bit);
      EXPECT_NE(digest_of(changed), d) << "byte " << byte << " bit " << bit;
    }
  }
}

TEST(Digest, CountsDuplicates) {
  std::vector<box::Particle> ps = some_particles(3);
  const uint64_t d = digest_of(ps);
  ps.push_back(ps[0]);
  EXPECT_NE(digest_of(ps), d);
}

TEST(FirstDifferences, EmptyForEqualSets) {
  std::vector<box::Particle> a = some_particles(50), b = a;
  std::reverse(b.begin(), b.end());
  EXPECT_TRUE(first_differences(a, b, 10).empty());
}

TEST(FirstDifferences, NamesMissingExtraAndChangedParticles) {
  std::vector<box::Particle> a = some_particles(5), b = a;
  b[2].vy = 3.5f;          // id 15 differs in vy
  b.erase(b.begin() + 4);  // id 29 only in A
  box::Particle extra = box::at_rest(1, 1);
  extra.tag = ParticleTag::make(1000, 0);
  b.push_back(extra);  // id 1000 only in B
  const std::vector<std::string> d = first_differences(a, b, 10, "ref", "gpu");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_NE(d[0].find("id 0x000000000000000f differs: vy ref=0 gpu=3.5"), std::string::npos)
      << d[0];
  EXPECT_NE(d[1].find("only in ref: id 0x000000000000001d"), std::string::npos) << d[1];
  EXPECT_NE(d[2].find("only in gpu: id 0x00000000000003e8"), std::string::npos) << d[2];
  EXPECT_EQ(first_differences(a, b, 2).size(), 2u);
}

}  // namespace
}  // namespace sb
