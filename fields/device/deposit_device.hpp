// Cloud-in-cell deposition on the device (docs/physics.md, "Self-consistent fields"): the same
// fixed-point units as the host's deposit (fields/mesh.hpp), so the grid is the host's int64
// grid bit for bit whatever the order of the atomic additions. Two variants, kept and measured
// (docs/performance.md): plain atomics, and particles sorted by cell first (seed 000).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/cuda_check.hpp"
#include "fields/device/positions.hpp"
#include "fields/mesh.hpp"

namespace sb::fields {

enum class DepositVariant { kAtomic, kSorted };

// Deposits particles onto a device grid of mesh.nodes() int64 units, adding sign * the units of
// each corner (the grid is not cleared first), enqueued on `stream`. Holds the sort's buffers,
// made for the largest count seen and reused. The sorted variant takes at most 2^32 - 1
// particles per call and grids of up to 1624 nodes per axis (32-bit indices and cell keys).
class DeviceDeposit {
 public:
  DeviceDeposit(const Mesh& mesh, Boundary boundary);

  void deposit(DepositVariant variant, DevicePositions positions, uint64_t count, int sign,
               int64_t* charge, cudaStream_t stream);

  // Moves the mesh (its origin and spacing) for the deposits after this: a mesh that follows the
  // particles (air's space charge). Its node count and boundary stay the ones it was made with.
  void place(const Mesh& mesh);

 private:
  void reserve(uint64_t count, cudaStream_t stream);

  Mesh mesh_;
  Boundary boundary_;
  int key_bits_;  // bits of the cell keys the radix sort looks at
  DeviceBuffer<uint32_t> keys_{"the particles' cell keys"}, sorted_keys_{"the sorted cell keys"};
  DeviceBuffer<uint32_t> order_{"the particles' indices"}, sorted_order_{"the sorted indices"};
  DeviceBuffer<unsigned char> sort_scratch_{"the radix sort's scratch"};
};

}  // namespace sb::fields
