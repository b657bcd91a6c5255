// Removing the dead particles after a phase, five ways (seed 003 §3.4.2 and §7.2):
//   simple   each survivor claims its new slot with its own atomic, into a second array;
//   block    survivors count in shared memory, one atomic per block;
//   warp     the seed's version: a warp ballot, one shared atomic per warp, one global per block;
//   cub      cub::DeviceSelect::If into a second array;
//   inplace  no second array: the survivors past the new count fill the holes before it.
// The first four keep two particle arrays and swap them (the seed's design, §3.4.2); inplace
// keeps one array of `capacity` particles, plus two index lists no longer than the holes.
// Order is not kept: a run's result is a multiset.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>

#include <array>
#include <string>
#include <vector>

#include <algorithm>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "core/grid_shape.hpp"
#include "core/particle.hpp"
#include "core/run_config.hpp"
#include "schedulers/compaction_variants.hpp"
#include "schedulers/device/slots.cuh"

namespace sb {

namespace compaction {

template <class Particle>
__global__ void simple(const Particle* in, SlotIndex n, Particle* out, SlotIndex* count) {
  const SlotIndex i = grid_thread_index();
  if (i < n && is_alive(in[i].tag)) out[atomicAdd(count, 1ull)] = in[i];
}

template <class Particle>
__global__ void block(const Particle* in, SlotIndex n, Particle* out, SlotIndex* count) {
  __shared__ unsigned int in_block;
  __shared__ SlotIndex base;
  if (threadIdx.x == 0) in_block = 0;
  __syncthreads();
  const SlotIndex i = grid_thread_index();
  const bool alive = i < n && is_alive(in[i].tag);
  const unsigned int local = alive ? atomicAdd_block(&in_block, 1u) : 0;
  __syncthreads();
  if (threadIdx.x == 0 && in_block > 0) base = atomicAdd(count, SlotIndex{in_block});
  __syncthreads();
  if (alive) out[base + local] = in[i];
}

template <class Particle>
__global__ void warp(const Particle* in, SlotIndex n, Particle* out, SlotIndex* count) {
  __shared__ unsigned int in_block;
  __shared__ SlotIndex base;
  if (threadIdx.x == 0) in_block = 0;
  __syncthreads();
  const SlotIndex i = grid_thread_index();
  const bool alive = i < n && is_alive(in[i].tag);
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int ballot = __ballot_sync(0xFFFFFFFFu, alive);
  unsigned int warp_base = 0;
  if (lane == 0 && ballot != 0) warp_base = atomicAdd_block(&in_block, __popc(ballot));
  warp_base = __shfl_sync(0xFFFFFFFFu, warp_base, 0);
  __syncthreads();
  if (threadIdx.x == 0 && in_block > 0) base = atomicAdd(count, SlotIndex{in_block});
  __syncthreads();
  if (alive) out[base + warp_base + __popc(ballot & ((1u << lane) - 1))] = in[i];
}

// Marks slots [from, to) empty. Only the status word matters: a slot's other fields are read
// only once it is published (schedulers/device/slots.cuh).
template <class Particle>
__global__ void clear_status(Particle* ps, SlotIndex from, SlotIndex to) {
  const SlotIndex i = from + grid_thread_index();
  if (i < to) ps[i].tag.status = kEmpty;
}

template <class Particle>
__global__ void fill_holes(Particle* ps, const SlotIndex* holes, const SlotIndex* movers,
                           SlotIndex k) {
  const SlotIndex j = grid_thread_index();
  if (j < k) ps[holes[j]] = ps[movers[j]];
}

template <class Particle>
struct AliveAt {
  const Particle* ps;
  __device__ bool operator()(SlotIndex i) const { return is_alive(ps[i].tag); }
};

template <class Particle>
struct DeadAt {
  const Particle* ps;
  __device__ bool operator()(SlotIndex i) const { return !is_alive(ps[i].tag); }
};

template <class Particle>
struct AliveCount {
  const Particle* ps;
  __device__ SlotIndex operator()(SlotIndex i) const { return is_alive(ps[i].tag) ? 1 : 0; }
};

struct IsAlive {
  template <class Particle>
  __device__ bool operator()(const Particle& p) const {
    return is_alive(p.tag);
  }
};

}  // namespace compaction

// Removes the dead of a phase with the chosen variant. Afterwards the live particles fill
// [0, count) of the current array, and its slots from count up have status kEmpty, as the
// hand-offs of the next phase need.
template <class Particle>
class Compactor {
 public:
  // `dirty` is how many leading slots of `particles` may hold data (the rest are zeroed).
  Compactor(const std::string& variant, DeviceBuffer<Particle>& particles, SlotIndex dirty,
            uint32_t block_size, cudaStream_t stream)
      : variant_(variant),
        current_(particles),
        block_(block_size),
        stream_(stream),
        counter_(1, "the compaction counter"),
        dirty_{dirty, 0} {
    if (std::find(compaction_variants().begin(), compaction_variants().end(), variant) ==
        compaction_variants().end()) {
      throw std::logic_error("Compactor: unknown variant " + variant);
    }
    if (variant != "inplace") {
      spare_ = DeviceBuffer<Particle>(particles.size(), "the compaction's second particle array");
      SB_CUDA_CHECK(cudaMemsetAsync(spare_.data(), 0, spare_.size() * sizeof(Particle), stream));
    }
    SB_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&host_), sizeof(SlotIndex)));
  }
  ~Compactor() { cudaFreeHost(host_); }
  Compactor(const Compactor&) = delete;
  Compactor& operator=(const Compactor&) = delete;

  // Compacts [0, n) of the current array; returns the number of live particles. Waits for the
  // stream (the count is needed on the host).
  SlotIndex compact(SlotIndex n) {
    dirty_[0] = std::max(dirty_[0], n);
    if (variant_ == "inplace") return in_place(n);
    SB_CUDA_CHECK(cudaMemsetAsync(counter_.data(), 0, sizeof(SlotIndex), stream_));
    const uint32_t grid = blocks_for(n, block_);
    Particle* in = current_.data();
    Particle* out = spare_.data();
    if (n > 0 && variant_ == "simple") {
      compaction::simple<<<grid, block_, 0, stream_>>>(in, n, out, counter_.data());
    } else if (n > 0 && variant_ == "block") {
      compaction::block<<<grid, block_, 0, stream_>>>(in, n, out, counter_.data());
    } else if (n > 0 && variant_ == "warp") {
      compaction::warp<<<grid, block_, 0, stream_>>>(in, n, out, counter_.data());
    } else if (n > 0) {
      size_t bytes = 0;
      SB_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, in, out, counter_.data(), n,
                                          compaction::IsAlive{}, stream_));
      temp_.reserve(bytes);
      SB_CUDA_CHECK(cub::DeviceSelect::If(temp_.data(), bytes, in, out, counter_.data(), n,
                                          compaction::IsAlive{}, stream_));
    }
    SB_CUDA_CHECK(cudaGetLastError());
    const SlotIndex alive = read(counter_.data());
    std::swap(current_, spare_);
    std::swap(dirty_[0], dirty_[1]);
    clear(alive);
    return alive;
  }

 private:
  SlotIndex in_place(SlotIndex n) {
    using compaction::AliveAt;
    using compaction::DeadAt;
    const thrust::counting_iterator<SlotIndex> from_zero(0);
    Particle* ps = current_.data();
    size_t bytes = 0;
    const auto ones =
        thrust::make_transform_iterator(from_zero, compaction::AliveCount<Particle>{ps});
    SB_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, ones, counter_.data(), n, stream_));
    temp_.reserve(bytes);
    SB_CUDA_CHECK(cub::DeviceReduce::Sum(temp_.data(), bytes, ones, counter_.data(), n, stream_));
    const SlotIndex alive = read(counter_.data());
    if (alive < n) {
      // As many dead lie before `alive` as live particles after it: pair them up.
      const SlotIndex tail = n - alive;
      holes_.reserve(tail);
      movers_.reserve(tail);
      size_t a = 0, b = 0;
      SB_CUDA_CHECK(cub::DeviceSelect::If(nullptr, a, from_zero, holes_.data(), counter_.data(),
                                          alive, DeadAt<Particle>{ps}, stream_));
      SB_CUDA_CHECK(cub::DeviceSelect::If(nullptr, b, from_zero + alive, movers_.data(),
                                          counter_.data(), tail, AliveAt<Particle>{ps}, stream_));
      temp_.reserve(std::max(a, b));
      bytes = temp_.size();
      SB_CUDA_CHECK(cub::DeviceSelect::If(temp_.data(), bytes, from_zero, holes_.data(),
                                          counter_.data(), alive, DeadAt<Particle>{ps}, stream_));
      const SlotIndex k = read(counter_.data());
      bytes = temp_.size();
      SB_CUDA_CHECK(cub::DeviceSelect::If(temp_.data(), bytes, from_zero + alive, movers_.data(),
                                          counter_.data(), tail, AliveAt<Particle>{ps}, stream_));
      if (k > 0) {
        compaction::fill_holes<<<blocks_for(k, block_), block_, 0, stream_>>>(ps, holes_.data(),
                                                                              movers_.data(), k);
        SB_CUDA_CHECK(cudaGetLastError());
      }
    }
    clear(alive);
    return alive;
  }

  // Empties the current array from `alive` to what it may hold.
  void clear(SlotIndex alive) {
    if (dirty_[0] > alive) {
      compaction::clear_status<<<blocks_for(dirty_[0] - alive, block_), block_, 0, stream_>>>(
          current_.data(), alive, dirty_[0]);
      SB_CUDA_CHECK(cudaGetLastError());
    }
    dirty_[0] = alive;
    SB_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  SlotIndex read(const SlotIndex* device_word) {
    SB_CUDA_CHECK(
        cudaMemcpyAsync(host_, device_word, sizeof(SlotIndex), cudaMemcpyDeviceToHost, stream_));
    SB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return *host_;
  }

  std::string variant_;
  DeviceBuffer<Particle>& current_;
  DeviceBuffer<Particle> spare_{"the compaction's second particle array"};
  uint32_t block_;
  cudaStream_t stream_;
  DeviceBuffer<SlotIndex> counter_;
  DeviceBuffer<SlotIndex> holes_{"the in-place compaction's holes"};
  DeviceBuffer<SlotIndex> movers_{"the in-place compaction's movers"};
  DeviceBuffer<unsigned char> temp_{"the compaction's CUB scratch"};
  std::array<SlotIndex, 2> dirty_;  // leading slots that may hold data: current, spare
  SlotIndex* host_ = nullptr;
};

}  // namespace sb
