// Reads the device's particle counter n from the host, for schedulers that decide launches on
// the host (naive, naive-buffered, cpu-sync): a pinned word, a copy, a watched wait.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "schedulers/device/phase.cuh"

namespace sb {

class HostCounter {
 public:
  HostCounter();
  ~HostCounter();
  HostCounter(const HostCounter&) = delete;
  HostCounter& operator=(const HostCounter&) = delete;

  // The current n, after the work queued on the setup's stream; at most the capacity.
  SlotIndex read_n(const DeviceSetup& s, const DeviceCounters* counters, SlotIndex capacity);

 private:
  SlotIndex* host_ = nullptr;
};

}  // namespace sb
