// The GPU's clocks, throttle reasons and energy while a point is measured, read through NVML (the
// driver's libnvidia-ml.so.1, opened at run time with nvml.h's declarations: a machine without
// the driver reads nothing, and says why), and its clocks locked where the machine allows it.
// A repetition during which the GPU was slowed by power or heat is flagged, so that its time
// is not taken for the scheduler's (docs/performance.md, "How it was measured").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sb {

struct ClockSample {
  unsigned sm_mhz = 0;
  uint64_t reasons = 0;  // NVML's clock event reasons bit mask
};

// The reasons of `mask` that slow the GPU down (power cap, thermal, hardware slowdown), as
// names ("sw-power-cap", "hw-thermal-slowdown", ...); idle and application clocks are not.
std::vector<std::string> slowdown_reasons(uint64_t mask);

// The driver's NVML library.
inline constexpr const char* kNvmlLibrary = "libnvidia-ml.so.1";

class GpuClocks {
 public:
  // The clocks of CUDA device `device` of this process, through the NVML library `library`;
  // empty where the library, NVML or the device cannot be opened, with the reason in `why`.
  static std::optional<GpuClocks> open(int device, std::string& why,
                                       const char* library = kNvmlLibrary);
  ~GpuClocks();
  GpuClocks(GpuClocks&&) noexcept;
  GpuClocks(const GpuClocks&) = delete;
  GpuClocks& operator=(const GpuClocks&) = delete;
  GpuClocks& operator=(GpuClocks&&) noexcept;

  ClockSample sample() const;

  // The GPU's energy counter (millijoules since the driver loaded); empty where the device has
  // none or the read fails, with NVML's reason in `why`.
  std::optional<uint64_t> energy_mj(std::string& why) const;

  // Locks the GPU's clocks at its base clock (NVML's TDP clock limit, as NVBench's
  // --lock-gpu-clocks base does): "" where it did, else NVML's reason ("Insufficient
  // Permissions" without root, "Not Supported").
  std::string lock_base_clocks();
  // Lets the clocks follow the load again.
  void reset_locked_clocks();

 private:
  struct Library;
  explicit GpuClocks(std::unique_ptr<Library> lib);
  std::unique_ptr<Library> lib_;
};

// The GPU's clocks locked at the base clock from construction to destruction, where NVML lets
// this process lock them (docs/performance.md, "How it was measured"): a point's runs, its
// error paths included, end with the clocks unlocked.
class BaseClockLock {
 public:
  explicit BaseClockLock(GpuClocks& clocks)
      : clocks_(clocks), refusal_(clocks.lock_base_clocks()) {}
  ~BaseClockLock() {
    if (locked()) clocks_.reset_locked_clocks();
  }
  BaseClockLock(const BaseClockLock&) = delete;
  BaseClockLock& operator=(const BaseClockLock&) = delete;

  bool locked() const { return refusal_.empty(); }
  const std::string& refusal() const { return refusal_; }  // why NVML refused; "" where locked

 private:
  GpuClocks& clocks_;
  std::string refusal_;
};

}  // namespace sb
