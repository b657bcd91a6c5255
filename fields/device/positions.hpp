// Where the device kernels of the field module read particle positions: a sim's own particle
// array, whatever its layout, as long as x, y, z are consecutive doubles in each particle (pic's
// and air's particles both begin with their position).
#pragma once

#include <cstdint>

#include "core/hostdev.hpp"

namespace sb::fields {

// Particle i's x, y, z at base + i * stride_bytes, in device memory.
struct DevicePositions {
  const double* base = nullptr;
  uint64_t stride_bytes = 3 * sizeof(double);

  SB_HD const double* operator[](uint64_t i) const {
    return reinterpret_cast<const double*>(reinterpret_cast<const char*>(base) + i * stride_bytes);
  }
};

}  // namespace sb::fields
