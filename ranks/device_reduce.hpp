// Sums of device grids over the ranks (docs/design.md §10): every rank's GPU ends with the same
// grid, summed GPU to GPU (ranks/device_communicator.hpp). Nothing moves on one rank.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/cuda_check.hpp"
#include "ranks/device_communicator.hpp"
#include "ranks/traffic.hpp"

namespace sb::ranks {

// T: int64_t (fixed-point charge) or uint32_t (counts). Waits for the stream, so that the time
// counted (ranks/traffic.hpp) is the sum's alone.
template <class T>
void sum_on_device(Communicator& comm, T* device, uint64_t n, cudaStream_t stream) {
  if (comm.size() == 1 || n == 0) return;
  DeviceCommunicator& gpus = device_world();
  SB_CUDA_CHECK(cudaStreamSynchronize(stream));
  const CountedReduction counted(n * sizeof(T));
  gpus.sum(device, n, stream);
  SB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace sb::ranks
