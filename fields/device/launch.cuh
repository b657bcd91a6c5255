// The launch shape of the field module's kernels: one thread per node or particle.
#pragma once

#include <cstdint>

namespace sb::fields {

inline constexpr int kBlock = 256;

// Blocks of kBlock threads for `count` items.
inline unsigned blocks_for(uint64_t count) {
  return static_cast<unsigned>((count + kBlock - 1) / kBlock);
}

}  // namespace sb::fields
