// 64-bit mixing used for child ids and particle digests.
#pragma once

#include <cstdint>

#include "core/hostdev.hpp"

namespace sb {

// The splitmix64 output function (Steele, Lea, Flood 2014): a bijection on 64-bit words with
// strong avalanche.
SB_HD inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

SB_HD inline uint64_t splitmix64(uint64_t x) {
  return mix64(x + 0x9E3779B97F4A7C15ull);
}

// A parent spawns at most one child per step, so (parent id, step) names the birth uniquely;
// for a fixed parent the map from step to child id is a bijection.
SB_HD inline uint64_t child_id(uint64_t parent_id, uint32_t step) {
  return splitmix64(splitmix64(parent_id) ^ step);
}

}  // namespace sb
