// The launch shape of a kernel with one thread per item.
#pragma once

#include <cstdint>

namespace sb {

// Blocks of `block` threads for `count` items. A grid may have 2^31 - 1 blocks: 6.9e10 items at
// the smallest block of 32, more particles than any device's memory holds.
inline uint32_t blocks_for(uint64_t count, uint32_t block) {
  return static_cast<uint32_t>((count + block - 1) / block);
}

}  // namespace sb
