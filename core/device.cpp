#include "core/device.hpp"

#include <cuda_runtime_api.h>

namespace sb {

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" / "no driver" error
    return 0;
  }
  return n;
}

bool cuda_device_present() {
  return cuda_device_count() > 0;
}

std::optional<DeviceDescription> describe_device() {
  if (!cuda_device_present()) return std::nullopt;
  DeviceDescription d;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&d.index) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, d.index) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  d.name = prop.name;
  d.compute_major = prop.major;
  d.compute_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  d.memory_bytes = static_cast<long long>(prop.totalGlobalMem);
  d.l2_bytes = prop.l2CacheSize;
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d.index) == cudaSuccess) {
    d.sm_clock_peak_mhz = khz / 1000;
  }
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, d.index) == cudaSuccess) {
    d.memory_clock_peak_mhz = khz / 1000;
  }
  if (cudaDeviceGetAttribute(&d.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, d.index) !=
      cudaSuccess) {
    d.memory_bus_bits = 0;
  }
  cudaDriverGetVersion(&d.driver_api_version);
  cudaRuntimeGetVersion(&d.runtime_version);
  return d;
}

}  // namespace sb
