// The order-independent digest of a particle set: the sum mod 2^64 of a 64-bit hash of each
// particle's fields. Equal multisets give equal digests whatever the order; the hash chains a
// bijection over the fields, so two particles that differ in any field hash differently.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/hash.hpp"
#include "core/hostdev.hpp"

namespace sb {

SB_HD inline uint64_t field_bits(uint32_t v) {
  return v;
}

SB_HD inline uint64_t field_bits(float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}

SB_HD inline uint64_t field_bits(double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}

template <class Particle>
SB_HD uint64_t particle_hash(const Particle& p) {
  uint64_t h = 0x6A09E667F3BCC908ull;
  p.visit([&h](const char*, auto value) { h = mix64(h ^ field_bits(value)); });
  return h;
}

template <class Range>
uint64_t digest_of(const Range& particles) {
  uint64_t sum = 0;
  for (const auto& p : particles)
    sum += particle_hash(p);
  return sum;
}

}  // namespace sb
