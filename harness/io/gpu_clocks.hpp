// The GPU's clocks and throttle reasons while a point is measured, read through NVML (the
// driver's libnvidia-ml.so.1, opened at run time: a machine without the driver reads nothing).
// A repetition during which the GPU was slowed by power or heat is flagged, so that its time
// is not taken for the scheduler's (docs/performance.md, "How a point is measured").
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

class GpuClocks {
 public:
  // The clocks of CUDA device `device` of this process; empty where NVML or the device cannot
  // be opened.
  static std::optional<GpuClocks> open(int device);
  ~GpuClocks();
  GpuClocks(GpuClocks&&) noexcept;
  GpuClocks(const GpuClocks&) = delete;
  GpuClocks& operator=(const GpuClocks&) = delete;
  GpuClocks& operator=(GpuClocks&&) noexcept;

  ClockSample sample() const;

 private:
  struct Library;
  explicit GpuClocks(std::unique_ptr<Library> lib);
  std::unique_ptr<Library> lib_;
};

}  // namespace sb
