// Philox4x32-10 (Salmon et al., SC'11): a counter-based generator, i.e. a pure function of a
// 128-bit counter and a 64-bit key. One implementation serves host and device; tests check it
// against the Random123 known answers and against cuRAND's curand_Philox4x32_10.
#pragma once

#include <cstdint>

#include "core/hostdev.hpp"

namespace sb {

struct Philox4x32Counter {
  uint32_t w0, w1, w2, w3;
};

struct Philox4x32Key {
  uint32_t k0, k1;
};

using Philox4x32Output = Philox4x32Counter;

namespace detail {

inline constexpr uint32_t kPhiloxM0 = 0xD2511F53u;
inline constexpr uint32_t kPhiloxM1 = 0xCD9E8D57u;
inline constexpr uint32_t kPhiloxW0 = 0x9E3779B9u;
inline constexpr uint32_t kPhiloxW1 = 0xBB67AE85u;

SB_HD inline Philox4x32Counter philox_round(Philox4x32Counter c, Philox4x32Key k) {
  // A 32x32->64 product gives both halves in one instruction on either side.
  const uint64_t p0 = uint64_t{kPhiloxM0} * c.w0;
  const uint64_t p1 = uint64_t{kPhiloxM1} * c.w2;
  const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32);
  const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32);
  return {hi1 ^ c.w1 ^ k.k0, static_cast<uint32_t>(p1), hi0 ^ c.w3 ^ k.k1,
          static_cast<uint32_t>(p0)};
}

}  // namespace detail

SB_HD inline Philox4x32Output philox4x32_10(Philox4x32Counter c, Philox4x32Key k) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k.k0 += detail::kPhiloxW0;
      k.k1 += detail::kPhiloxW1;
    }
    c = detail::philox_round(c, k);
  }
  return c;
}

}  // namespace sb
