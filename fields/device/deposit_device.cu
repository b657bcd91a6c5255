#include "fields/device/deposit_device.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/warp/warp_reduce.cuh>

#include <stdexcept>

#include "fields/device/launch.cuh"

namespace sb::fields {
namespace {

__device__ Stencil stencil_at(const Mesh& m, DevicePositions p, uint64_t i) {
  const double* at = p[i];
  return stencil_of(m, at[0], at[1], at[2]);
}

// Adds units (two's complement: a negative deposit is a large unsigned addend) to a node.
__device__ void add_units(int64_t* charge, int64_t node, unsigned long long units) {
  atomicAdd(reinterpret_cast<unsigned long long*>(charge + node), units);
}

__device__ unsigned long long signed_units(const Stencil& s, int c, int sign) {
  return static_cast<unsigned long long>(sign * corner_units(s, c));
}

__global__ void deposit_atomic(Mesh m, Boundary b, DevicePositions p, uint64_t count, int sign,
                               int64_t* charge) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const Stencil s = stencil_at(m, p, i);
  for (int c = 0; c < 8; ++c) {
    const int64_t node = corner_node(m, b, s, c);
    if (node >= 0) add_units(charge, node, signed_units(s, c, sign));
  }
}

// The cell key of a stencil: the index of its lowest node in the box of cells that can touch the
// grid (periodic: the n^3 cells, lo wrapped; open: the (n+1)^3 cells with lo from -1 to n - 1),
// or `none` (the box's size) for a particle whose every corner is off an open grid. Equal keys
// mean equal corner nodes.
__device__ uint32_t cell_key(const Mesh& m, Boundary b, const Stencil& s, uint32_t none) {
  const int side = b == Boundary::kPeriodic ? m.n : m.n + 1;
  uint32_t key = 0;
  for (int a = 2; a >= 0; --a) {
    int i = s.lo[a];
    if (b == Boundary::kPeriodic) {
      i %= m.n;
      if (i < 0) i += m.n;
    } else {
      ++i;
      if (i < 0 || i >= side) return none;
    }
    key = key * side + i;
  }
  return key;
}

__global__ void cell_keys(Mesh m, Boundary b, DevicePositions p, uint32_t count, uint32_t none,
                          uint32_t* keys, uint32_t* order) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  keys[i] = cell_key(m, b, stencil_at(m, p, i), none);
  order[i] = static_cast<uint32_t>(i);
}

// The sorted variant's deposit. Particles arrive sorted by cell key, so the particles of one
// cell sit in consecutive threads, and particles of one cell share all 8 corner nodes. Each warp
// sums, per corner, the units of each run of equal keys among its lanes (a segmented warp
// reduction, CUB's HeadSegmentedSum, by shuffles: no global memory); the run's first lane then
// makes the 8 atomic additions for the whole run. At p particles per cell a warp makes
// 8 * (runs in the warp) atomics instead of 8 * 32: up to 32 times fewer where cells are full,
// none fewer where each particle has a cell of its own (the sort is then pure cost). A run cut
// by a warp boundary is added by both warps: still exact, as the sums are integers.
__global__ void deposit_sorted(Mesh m, Boundary b, DevicePositions p, uint32_t count, int sign,
                               uint32_t none, const uint32_t* keys, const uint32_t* order,
                               int64_t* charge) {
  using WarpSum = cub::WarpReduce<unsigned long long>;
  __shared__ typename WarpSum::TempStorage scratch[kBlock / 32];
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  // Every lane takes part in the warp sums: lanes past the end count as empty ones.
  const uint32_t key = t < count ? keys[t] : none;
  const bool head = lane == 0 || (t < count && keys[t - 1] != key);
  Stencil s{};
  if (key != none) s = stencil_at(m, p, order[t]);
  WarpSum sum(scratch[threadIdx.x / 32]);
  for (int c = 0; c < 8; ++c) {
    const unsigned long long run =
        sum.HeadSegmentedSum(key == none ? 0 : signed_units(s, c, sign), head);
    __syncwarp();  // the scratch is reused by the next corner's sum
    if (!head || key == none) continue;
    const int64_t node = corner_node(m, b, s, c);
    if (node >= 0) add_units(charge, node, run);
  }
}

// The keys' count: n^3 periodic cells or (n+1)^3 open ones.
uint64_t cell_box(const Mesh& m, Boundary b) {
  const uint64_t side = b == Boundary::kPeriodic ? m.n : m.n + 1;
  return side * side * side;
}

}  // namespace

DeviceDeposit::DeviceDeposit(const Mesh& mesh, Boundary boundary)
    : mesh_(mesh), boundary_(boundary), key_bits_(0) {
  // The sort looks only at the bits that can differ: up to and including the `none` key.
  for (uint64_t box = cell_box(mesh, boundary); box > 0; box >>= 1)
    ++key_bits_;
}

void DeviceDeposit::place(const Mesh& mesh) {
  if (mesh.n != mesh_.n) {
    throw std::invalid_argument(
        fmt::format("a deposit made for {} nodes per axis was placed on {}", mesh_.n, mesh.n));
  }
  mesh_ = mesh;
}

void DeviceDeposit::reserve(uint64_t count, cudaStream_t stream) {
  if (count <= keys_.size()) return;
  keys_.reserve(count);
  sorted_keys_.reserve(count);
  order_.reserve(count);
  sorted_order_.reserve(count);
  size_t bytes = 0;
  SB_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, bytes, keys_.data(), sorted_keys_.data(), order_.data(), sorted_order_.data(),
      static_cast<uint32_t>(count), 0, key_bits_, stream));
  sort_scratch_.reserve(bytes);
}

void DeviceDeposit::deposit(DepositVariant variant, DevicePositions positions, uint64_t count,
                            int sign, int64_t* charge, cudaStream_t stream) {
  if (count == 0) return;
  if (variant == DepositVariant::kAtomic) {
    deposit_atomic<<<blocks_for(count), kBlock, 0, stream>>>(mesh_, boundary_, positions, count,
                                                             sign, charge);
    SB_CUDA_CHECK(cudaGetLastError());
    return;
  }
  if (count > UINT32_MAX) {
    throw std::invalid_argument(
        fmt::format("sorted deposition takes at most {} particles, not {}", UINT32_MAX, count));
  }
  if (cell_box(mesh_, boundary_) >= UINT32_MAX) {  // the keys are 32-bit
    throw std::invalid_argument(
        fmt::format("sorted deposition takes grids of up to 1624 nodes per axis, not {}", mesh_.n));
  }
  reserve(count, stream);
  const auto n = static_cast<uint32_t>(count);
  const auto none = static_cast<uint32_t>(cell_box(mesh_, boundary_));
  cell_keys<<<blocks_for(n), kBlock, 0, stream>>>(mesh_, boundary_, positions, n, none,
                                                  keys_.data(), order_.data());
  SB_CUDA_CHECK(cudaGetLastError());
  size_t bytes = sort_scratch_.size();
  SB_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sort_scratch_.data(), bytes, keys_.data(),
                                                sorted_keys_.data(), order_.data(),
                                                sorted_order_.data(), n, 0, key_bits_, stream));
  deposit_sorted<<<blocks_for(n), kBlock, 0, stream>>>(mesh_, boundary_, positions, n, sign, none,
                                                       sorted_keys_.data(), sorted_order_.data(),
                                                       charge);
  SB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace sb::fields
