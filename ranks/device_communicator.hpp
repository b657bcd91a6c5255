// Device data between the GPUs of a run's ranks (docs/design.md §10): grids summed and particles
// moved GPU to GPU through NCCL, which a launcher-started process on GPUs loads from
// build/lib/libsb_nccl.so (ranks/nccl.cpp), so that a run on one rank, or on CPU engines, needs
// no NCCL library. Host data goes through the Communicator (ranks/communicator.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "core/errors.hpp"
#include "ranks/communicator.hpp"

namespace sb::ranks {

class DeviceCommunicator {
 public:
  virtual ~DeviceCommunicator() = default;
  // Element-wise sums over the ranks of n values in this rank's device memory, in place, enqueued
  // on `stream`; exact, as integer sums are whatever the reduction's order.
  void sum(int64_t* device, uint64_t n, cudaStream_t stream) {
    raise(sum_int64(device, n, stream));
  }
  void sum(uint32_t* device, uint64_t n, cudaStream_t stream) {
    raise(sum_uint32(device, n, stream));
  }
  // As Communicator::exchange, from and to device memory, enqueued on `stream`; this rank's own
  // records (send_counts[rank], recv_counts[rank]) are neither sent nor received: the caller
  // keeps them where they are.
  void exchange(const void* send, const std::vector<uint64_t>& send_counts, void* recv,
                const std::vector<uint64_t>& recv_counts, size_t record_bytes,
                cudaStream_t stream) {
    raise(exchange_records(send, send_counts, recv, recv_counts, record_bytes, stream));
  }

 protected:
  // What the module (ranks/nccl.cpp) implements: each returns nullptr, or what failed, in the
  // module's storage until its next call. No exception leaves the module: it links the system's
  // C++ runtime and the program its own (cmake/portable.cmake), and an exception thrown by one
  // is not caught by the other. The program throws it, here.
  virtual const char* sum_int64(int64_t* device, uint64_t n, cudaStream_t stream) = 0;
  virtual const char* sum_uint32(uint32_t* device, uint64_t n, cudaStream_t stream) = 0;
  virtual const char* exchange_records(const void* send, const std::vector<uint64_t>& send_counts,
                                       void* recv, const std::vector<uint64_t>& recv_counts,
                                       size_t record_bytes, cudaStream_t stream) = 0;

 private:
  static void raise(const char* error) {
    if (error != nullptr) throw RunError(error);
  }
};

// The GPU communicator of this process's ranks, made on first use (every rank must take part)
// on the GPU that is current then, and kept for the process's later runs.
DeviceCommunicator& device_world();

}  // namespace sb::ranks
