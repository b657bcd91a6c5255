// Device data between the GPUs of a run's ranks (docs/design.md §10): grids summed and particles
// moved GPU to GPU through NCCL, which a launcher-started process on GPUs loads from
// build/lib/libsb_nccl.so (ranks/nccl.cpp), so that a run on one rank, or on CPU engines, needs
// no NCCL library. Host data goes through the Communicator (ranks/communicator.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "ranks/communicator.hpp"

namespace sb::ranks {

class DeviceCommunicator {
 public:
  virtual ~DeviceCommunicator() = default;
  // Element-wise sums over the ranks of n values in this rank's device memory, in place, enqueued
  // on `stream`; exact, as integer sums are whatever the reduction's order.
  virtual void sum(int64_t* device, uint64_t n, cudaStream_t stream) = 0;
  virtual void sum(uint32_t* device, uint64_t n, cudaStream_t stream) = 0;
  // As Communicator::exchange, from and to device memory, enqueued on `stream`; this rank's own
  // records (send_counts[rank], recv_counts[rank]) are neither sent nor received: the caller
  // keeps them where they are.
  virtual void exchange(const void* send, const std::vector<uint64_t>& send_counts, void* recv,
                        const std::vector<uint64_t>& recv_counts, size_t record_bytes,
                        cudaStream_t stream) = 0;
};

// The GPU communicator of this process's ranks, made on first use (every rank must take part)
// on the GPU that is current then, and kept for the process's later runs.
DeviceCommunicator& device_world();

}  // namespace sb::ranks
