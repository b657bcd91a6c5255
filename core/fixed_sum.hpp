// Sums of doubles that are exact, and so the same in any order, on any engine and any number of
// ranks (docs/determinism.md): each term rounded toward zero to a multiple of 2^-64 and added as a
// 128-bit integer. Terms must lie below 2^63 in magnitude.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hostdev.hpp"

namespace sb {

// A signed 128-bit integer (GCC's, and nvcc's in device code, as an extension of ISO C++).
__extension__ typedef __int128 Int128;

struct FixedSum {
  Int128 bits = 0;  // the sum times 2^64

  // x times 2^64, rounded toward zero (as a cast of ldexp(x, 64) would round), from x's 53-bit
  // significand by integer shifts alone, as device code has no conversion of doubles to 128 bits.
  SB_HD static FixedSum of(double x) {
    if (x == 0 || !(x == x)) return {};
    int e = 0;
    const double f = frexp(x, &e);                         // x = f 2^e, 1/2 <= |f| < 1
    const int64_t m = static_cast<int64_t>(ldexp(f, 53));  // exact: x = m 2^(e - 53)
    __extension__ typedef unsigned __int128 Bits;
    Bits magnitude = static_cast<Bits>(m < 0 ? -m : m);
    const int shift = e - 53 + 64;
    if (shift >= 0) {
      magnitude <<= shift;
    } else {
      magnitude = -shift >= 128 ? 0 : magnitude >> -shift;
    }
    const Int128 bits = static_cast<Int128>(magnitude);
    return {m < 0 ? -bits : bits};
  }
  SB_HD FixedSum operator+(const FixedSum& o) const { return {bits + o.bits}; }
  double value() const { return std::ldexp(static_cast<double>(bits), -64); }
};

}  // namespace sb
