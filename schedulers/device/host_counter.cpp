#include "schedulers/device/host_counter.hpp"

#include <algorithm>

#include "core/cuda_check.hpp"

namespace sb {

HostCounter::HostCounter() {
  SB_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&host_), sizeof(SlotIndex)));
}

HostCounter::~HostCounter() {
  cudaFreeHost(host_);
}

SlotIndex HostCounter::read_n(const DeviceSetup& s, const DeviceCounters* counters,
                              SlotIndex capacity) {
  SB_CUDA_CHECK(
      cudaMemcpyAsync(host_, &counters->n, sizeof(SlotIndex), cudaMemcpyDeviceToHost, s.stream));
  s.watchdog.sync(s.stream);
  return std::min(*host_, capacity);
}

}  // namespace sb
