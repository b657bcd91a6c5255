// Functions that round identically on host and device, for paths that decide a particle's state
// (docs/determinism.md): built from + - * /, sqrt (correctly rounded on both sides) and bit
// manipulation only, never from a libm whose last bit differs between the two.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/draws.hpp"
#include "core/hostdev.hpp"

namespace sb {

// The square root in x's own precision, correctly rounded on host and device (sqrtf and sqrt; the
// device's without fast math, as the build compiles it).
SB_HD inline float det_sqrt(float x) {
  return sqrtf(x);
}
SB_HD inline double det_sqrt(double x) {
  return sqrt(x);
}

// The natural logarithm of a positive, normal, finite x, within about 2 ulp of the true value.
// x = 2^e m with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s) with s = (m - 1) / (m + 1), so
// |s| < 0.172 and the odd series in s converges by a factor of 34 per term: 11 terms reach
// 1e-17. ln 2 is split in two so that e ln 2 is exact to 2^-80 for any exponent.
SB_HD inline double det_log(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  int e = static_cast<int>((bits >> 52) & 0x7FF) - 1023;
  bits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;  // m in [1, 2)
  double m;
  memcpy(&m, &bits, sizeof m);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    ++e;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  // Horner, constants folded at compile time (division is correctly rounded on either side).
  double series = 1.0 / 23;
  series = 1.0 / 21 + s2 * series;
  series = 1.0 / 19 + s2 * series;
  series = 1.0 / 17 + s2 * series;
  series = 1.0 / 15 + s2 * series;
  series = 1.0 / 13 + s2 * series;
  series = 1.0 / 11 + s2 * series;
  series = 1.0 / 9 + s2 * series;
  series = 1.0 / 7 + s2 * series;
  series = 1.0 / 5 + s2 * series;
  series = 1.0 / 3 + s2 * series;
  series = 1.0 + s2 * series;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 32 significant bits: e * it is exact
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const double ed = static_cast<double>(e);
  return ed * kLn2Hi + (2.0 * s * series + ed * kLn2Lo);
}

// A uniform double in (0, 1] from two words: 53 random bits, never 0, so its logarithm is
// finite.
SB_HD inline double unit_open_closed(uint32_t hi, uint32_t lo) {
  const uint64_t k = ((uint64_t{hi} << 32) | lo) >> 11;
  return static_cast<double>(k + 1) * 0x1p-53;
}

// A uniform double in [0, 1) from two words (53 random bits).
SB_HD inline double unit_double(uint32_t hi, uint32_t lo) {
  return static_cast<double>(((uint64_t{hi} << 32) | lo) >> 11) * 0x1p-53;
}

// A uniform double in [0, 1) from a stream's next two words, the first the high one. The two
// draws are sequenced here: as two arguments of one call their order would be the compiler's
// (host and device compilers evaluate them in different orders, docs/determinism.md).
template <class Words>
SB_HD double next_unit_double(Words& words) {
  const uint32_t hi = words.next();
  const uint32_t lo = words.next();
  return unit_double(hi, lo);
}

// A uniform double in [-1, 1) from one word.
SB_HD inline double signed_unit(uint32_t w) {
  return static_cast<double>(w) * 0x1p-31 - 1.0;
}

// The words of a step's extra blocks (StepDraw::block) one after the other, for draws whose
// number is itself random (rejection sampling). Block `first` onwards.
class WordStream {
 public:
  SB_HD WordStream(const StepDraw& draw, uint32_t first) : draw_(draw), next_block_(first) {}

  SB_HD uint32_t next() {
    if (used_ == 4) {
      words_ = draw_.block(next_block_++);
      used_ = 0;
    }
    return select_word(words_, used_++);
  }

 private:
  const StepDraw& draw_;
  uint32_t next_block_;
  Philox4x32Output words_{};
  uint32_t used_ = 4;
};

// The words of a particle's initial-state blocks (DrawStream::kInit, blocks 0, 1, ...).
class InitWords {
 public:
  SB_HD InitWords(DrawKey key, uint64_t id) : key_(key), id_(id) {}

  SB_HD uint32_t next() {
    if (used_ == 4) {
      words_ = draw_block(key_, id_, DrawStream::kInit, next_block_++);
      used_ = 0;
    }
    return select_word(words_, used_++);
  }

 private:
  DrawKey key_;
  uint64_t id_;
  uint32_t next_block_ = 0;
  Philox4x32Output words_{};
  uint32_t used_ = 4;
};

// A point (u, v) uniform in the unit disc without its centre, by rejection from the square;
// s = u^2 + v^2.
template <class Words>
SB_HD void point_in_disc(Words& words, double& u, double& v, double& s) {
  do {
    u = signed_unit(words.next());
    v = signed_unit(words.next());
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
}

// A direction uniform on the unit sphere (Marsaglia 1972): (2u sqrt(1 - s), 2v sqrt(1 - s),
// 1 - 2s) for (u, v) uniform in the unit disc. Words come from a WordStream or InitWords.
template <class Words>
SB_HD void isotropic_direction(Words& words, double d[3]) {
  double u, v, s;
  point_in_disc(words, u, v, s);
  const double r = 2.0 * sqrt(1.0 - s);
  d[0] = u * r;
  d[1] = v * r;
  d[2] = 1.0 - 2.0 * s;
}

// Two independent standard normal numbers (Marsaglia's polar method). Words come from a
// WordStream or InitWords.
template <class Words>
SB_HD void normal_pair(Words& words, double& a, double& b) {
  double u, v, s;
  point_in_disc(words, u, v, s);
  const double f = sqrt(-2.0 * det_log(s) / s);
  a = u * f;
  b = v * f;
}

}  // namespace sb
