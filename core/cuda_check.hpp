// Checked CUDA calls, an owning device buffer and an owning pinned host buffer.
#pragma once

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/memory.hpp"

namespace sb {

// A CUDA call failed: exit code 1 (the error is the device's or ours, not the input's).
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Out of memory is an AllocationError (exit code 3, like a host allocation that fails); `what`
// names what was being done (for an allocation, what and how much).
[[noreturn]] inline void throw_cuda_error(cudaError_t e, const std::string& what) {
  const std::string message = fmt::format("{} failed: {}", what, cudaGetErrorString(e));
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: the context stays usable
    throw AllocationError("out of memory: " + message);
  }
  throw CudaError(message);
}

// The same for a checked call (SB_CUDA_CHECK): the expression and where it is.
[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* expr, const char* file,
                                          int line) {
  throw_cuda_error(e, fmt::format("{} ({}:{})", expr, file, line));
}

// What the device has, for messages and for checks before a run.
struct DeviceMemory {
  size_t free_bytes = 0, total = 0;
  std::string describe() const {
    return fmt::format("the device has {} free of {}", format_bytes(free_bytes),
                       format_bytes(total));
  }
};

inline DeviceMemory device_memory() {
  DeviceMemory m;
  cudaMemGetInfo(&m.free_bytes, &m.total);
  return m;
}

#define SB_CUDA_CHECK(expr)                                               \
  do {                                                                    \
    const cudaError_t sb_cuda_status_ = (expr);                           \
    if (sb_cuda_status_ != cudaSuccess) {                                 \
      ::sb::throw_cuda_error(sb_cuda_status_, #expr, __FILE__, __LINE__); \
    }                                                                     \
  } while (0)

// Device memory held by DeviceBuffers in this process, and its high-water mark since the last
// reset: what a run needs (CUB and Thrust scratch of a few MB aside).
struct DeviceMemoryUse {
  inline static std::atomic<size_t> in_use{0};
  inline static std::atomic<size_t> peak{0};

  static void reset_peak() { peak = in_use.load(); }
  static void add(size_t bytes) {
    const size_t now = in_use += bytes;
    size_t seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
  }
};

// `count` elements of device memory, freed with the buffer. `name` says what it holds, for the
// AllocationError (exit code 3) when the device has not enough memory for it.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(const char* name) : name_(name) {}
  DeviceBuffer(size_t count, const char* name) : name_(name), count_(count) {
    if (count == 0) return;
    const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T));
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw allocation_error("device", name, count, sizeof(T), device_memory().describe());
    }
    if (e != cudaSuccess) {
      throw CudaError(fmt::format("cudaMalloc of {} for {} failed: {}",
                                  format_bytes(count * sizeof(T)), name, cudaGetErrorString(e)));
    }
    DeviceMemoryUse::add(count * sizeof(T));
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) {
      cudaFree(data_);
      DeviceMemoryUse::in_use -= count_ * sizeof(T);
    }
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : name_(o.name_),
        data_(std::exchange(o.data_, nullptr)),
        count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(name_, o.name_);
    std::swap(data_, o.data_);
    std::swap(count_, o.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() const { return data_; }
  size_t size() const { return count_; }

  // Makes room for at least `count` elements (contents are not kept when it reallocates).
  void reserve(size_t count) {
    if (count > count_) *this = DeviceBuffer<T>(count, name_);
  }

  std::vector<T> to_host(size_t count) const {
    std::vector<T> out(count);
    if (count > 0) {
      SB_CUDA_CHECK(cudaMemcpy(out.data(), data_, count * sizeof(T), cudaMemcpyDeviceToHost));
    }
    return out;
  }
  std::vector<T> to_host() const { return to_host(count_); }

  void copy_from_host(const std::vector<T>& host) { copy_from_host(host.data(), host.size()); }
  // The first `count` elements from `host`.
  void copy_from_host(const T* host, size_t count) {
    if (count > count_) throw std::logic_error("DeviceBuffer::copy_from_host: too many");
    if (count > 0) {
      SB_CUDA_CHECK(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
    }
  }

 private:
  const char* name_;
  T* data_ = nullptr;
  size_t count_ = 0;
};

// `count` elements of page-locked host memory (cudaHostAlloc), which the copy engines read and
// write while kernels run; AllocationError (exit code 3) where the host cannot pin that much.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer(size_t count, const char* name) : count_(count) {
    if (count == 0) return;
    const cudaError_t e =
        cudaHostAlloc(reinterpret_cast<void**>(&data_), count * sizeof(T), cudaHostAllocDefault);
    if (e != cudaSuccess) {
      cudaGetLastError();
      throw allocation_error("pinned host", name, count, sizeof(T),
                             fmt::format("cudaHostAlloc: {}", cudaGetErrorString(e)));
    }
  }
  ~PinnedBuffer() {
    if (data_ != nullptr) cudaFreeHost(data_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* data() const { return data_; }
  size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  size_t count_ = 0;
};

}  // namespace sb
