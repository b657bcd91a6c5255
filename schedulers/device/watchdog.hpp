// Ends a GPU run that does not finish. Waits on the device go through Watchdog::sync, which
// polls; past the deadline it raises a flag that every persistent kernel's wait loop reads, and
// fails the run with an error naming the scheduler and the configuration. The flag is a word of
// device memory, written by a copy on the watchdog's own stream (copy engines run beside the
// kernels), so that polling it costs an L2 read rather than a trip over PCIe.
#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace sb {

class Watchdog {
 public:
  // `what` names the run in the error; the deadline is `timeout_s` from now.
  Watchdog(std::string what, double timeout_s);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // The flag kernels poll: nonzero means stop.
  const volatile uint32_t* device_flag() const { return device_flag_; }

  // Returns once `stream` has no work left. Throws RunError if the deadline passes first and
  // the kernels stop when asked; ends the process (exit code 3) if they do not stop either.
  void sync(cudaStream_t stream);

  // Throws RunError if the deadline has passed (for host loops between launches).
  void check() const;

 private:
  [[noreturn]] void fail() const;

  std::string what_;
  double timeout_s_;
  std::chrono::steady_clock::time_point deadline_;
  uint32_t* raised_ = nullptr;       // pinned host word holding 1, the copy's source
  uint32_t* device_flag_ = nullptr;  // device memory
  cudaStream_t stream_{};            // carries the copy while the run's stream is busy
};

}  // namespace sb
