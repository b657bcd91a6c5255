#include "schedulers/device/host_counter.hpp"

#include <algorithm>

#include "core/cuda_check.hpp"

namespace sb {

HostCounter::HostCounter() {
  SB_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&host_), sizeof(unsigned int)));
}

HostCounter::~HostCounter() {
  cudaFreeHost(host_);
}

uint32_t HostCounter::read_n(const DeviceSetup& s, const DeviceCounters* counters,
                             uint32_t capacity) {
  SB_CUDA_CHECK(
      cudaMemcpyAsync(host_, &counters->n, sizeof(unsigned int), cudaMemcpyDeviceToHost, s.stream));
  s.watchdog.sync(s.stream);
  return std::min<uint32_t>(*host_, capacity);
}

}  // namespace sb
