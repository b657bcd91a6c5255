// Sums of device grids over the ranks (docs/design.md §10), through the host: a rank's grid is
// copied down, summed over the ranks as ranks/reduce.hpp sums host grids, and copied back, so that
// every rank's GPU holds the same grid. Nothing moves on one rank. (NCCL, GPU to GPU, would move
// less; not built yet.)
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "core/cuda_check.hpp"
#include "ranks/reduce.hpp"

namespace sb::ranks {

// T: int64_t (fixed-point charge) or uint32_t (counts).
template <class T>
void sum_on_device(Communicator& comm, T* device, uint64_t n, cudaStream_t stream) {
  if (comm.size() == 1 || n == 0) return;
  std::vector<T> host(n);
  SB_CUDA_CHECK(
      cudaMemcpyAsync(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  SB_CUDA_CHECK(cudaStreamSynchronize(stream));
  sum(comm, host.data(), n);
  SB_CUDA_CHECK(
      cudaMemcpyAsync(device, host.data(), n * sizeof(T), cudaMemcpyHostToDevice, stream));
  SB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace sb::ranks
