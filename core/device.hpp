// The CUDA device as the run sees it: whether one is there, and a description for results.
#pragma once

#include <optional>
#include <string>

namespace sb {

struct DeviceDescription {
  int index = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  long long memory_bytes = 0;
  int l2_bytes = 0;
  int sm_clock_peak_mhz = 0;
  int memory_clock_peak_mhz = 0;
  int memory_bus_bits = 0;
  int driver_api_version = 0;  // e.g. 13000 for CUDA 13.0
  int runtime_version = 0;
};

// Peak DRAM bandwidth in bytes per second: two transfers per memory clock over the bus (the
// figure vendors quote: 3.35 TB/s for the H100 SXM); 0 where the device does not say.
inline double peak_bandwidth_bytes_per_s(const DeviceDescription& d) {
  return 2.0 * d.memory_clock_peak_mhz * 1e6 * d.memory_bus_bits / 8.0;
}

// The CUDA devices this process sees (0 without a driver or a GPU).
int cuda_device_count();

// True where a CUDA device can be used (a driver and at least one GPU).
bool cuda_device_present();

// The current device, or nothing where there is none.
std::optional<DeviceDescription> describe_device();

}  // namespace sb
