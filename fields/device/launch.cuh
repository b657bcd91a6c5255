// The launch shape of the field module's kernels: one thread per node or particle.
#pragma once

#include <cstdint>

#include "core/grid_shape.hpp"

namespace sb::fields {

inline constexpr int kBlock = 256;

// Blocks of kBlock threads for `count` items.
inline unsigned blocks_for(uint64_t count) {
  return sb::blocks_for(count, kBlock);
}

}  // namespace sb::fields
