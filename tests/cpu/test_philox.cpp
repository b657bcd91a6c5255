// Philox4x32-10 against the known answers published with Random123 (tests/kat_vectors).
#include <gtest/gtest.h>

#include "core/philox.hpp"

namespace sb {
namespace {

struct KnownAnswer {
  Philox4x32Counter counter;
  Philox4x32Key key;
  Philox4x32Output expected;
};

const KnownAnswer kAnswers[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST(Philox, MatchesRandom123KnownAnswers) {
  for (const KnownAnswer& a : kAnswers) {
    const Philox4x32Output out = philox4x32_10(a.counter, a.key);
    EXPECT_EQ(out.w0, a.expected.w0);
    EXPECT_EQ(out.w1, a.expected.w1);
    EXPECT_EQ(out.w2, a.expected.w2);
    EXPECT_EQ(out.w3, a.expected.w3);
  }
}

TEST(Philox, EveryCounterWordAndKeyWordMatters) {
  const Philox4x32Counter c{1, 2, 3, 4};
  const Philox4x32Key k{5, 6};
  const Philox4x32Output base = philox4x32_10(c, k);
  const auto differs = [&](Philox4x32Counter c2, Philox4x32Key k2) {
    const Philox4x32Output o = philox4x32_10(c2, k2);
    return o.w0 != base.w0 || o.w1 != base.w1 || o.w2 != base.w2 || o.w3 != base.w3;
  };
  EXPECT_TRUE(differs({0, 2, 3, 4}, k));
  EXPECT_TRUE(differs({1, 0, 3, 4}, k));
  EXPECT_TRUE(differs({1, 2, 0, 4}, k));
  EXPECT_TRUE(differs({1, 2, 3, 0}, k));
  EXPECT_TRUE(differs(c, {0, 6}));
  EXPECT_TRUE(differs(c, {5, 0}));
}

}  // namespace
}  // namespace sb
