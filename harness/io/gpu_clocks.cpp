#include "harness/io/gpu_clocks.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <array>

namespace sb {
namespace {

// NVML's C interface as the driver exports it (nvml.h, which the CUDA toolkit here lacks):
// functions return 0 on success; a device is an opaque handle.
using NvmlDevice = void*;
using InitFn = int (*)();
using ShutdownFn = int (*)();
using HandleByBusIdFn = int (*)(const char*, NvmlDevice*);
using ClockInfoFn = int (*)(NvmlDevice, int, unsigned*);
using ReasonsFn = int (*)(NvmlDevice, unsigned long long*);
constexpr int kSmClock = 1;  // NVML_CLOCK_SM

struct Slowdown {
  uint64_t bit;
  const char* name;
};
// NVML's clock event reasons that lower the clocks below what the load asks for.
constexpr std::array<Slowdown, 5> kSlowdowns = {{{0x4, "sw-power-cap"},
                                                 {0x8, "hw-slowdown"},
                                                 {0x20, "sw-thermal-slowdown"},
                                                 {0x40, "hw-thermal-slowdown"},
                                                 {0x80, "hw-power-brake-slowdown"}}};

template <class Fn>
Fn symbol(void* handle, const char* name) {
  return reinterpret_cast<Fn>(dlsym(handle, name));
}

}  // namespace

struct GpuClocks::Library {
  void* handle = nullptr;
  NvmlDevice device = nullptr;
  ShutdownFn shutdown = nullptr;
  ClockInfoFn clock = nullptr;
  ReasonsFn reasons = nullptr;
  ~Library() {
    if (shutdown != nullptr) shutdown();
    if (handle != nullptr) dlclose(handle);
  }
};

std::vector<std::string> slowdown_reasons(uint64_t mask) {
  std::vector<std::string> out;
  for (const Slowdown& s : kSlowdowns) {
    if ((mask & s.bit) != 0) out.emplace_back(s.name);
  }
  return out;
}

std::optional<GpuClocks> GpuClocks::open(int device) {
  std::array<char, 32> bus_id{};
  if (cudaDeviceGetPCIBusId(bus_id.data(), bus_id.size(), device) != cudaSuccess) return {};
  auto lib = std::make_unique<Library>();
  lib->handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib->handle == nullptr) return {};
  const auto init = symbol<InitFn>(lib->handle, "nvmlInit_v2");
  const auto by_bus = symbol<HandleByBusIdFn>(lib->handle, "nvmlDeviceGetHandleByPciBusId_v2");
  lib->clock = symbol<ClockInfoFn>(lib->handle, "nvmlDeviceGetClockInfo");
  // The newer name of the same call first; drivers before 535 have the older only.
  lib->reasons = symbol<ReasonsFn>(lib->handle, "nvmlDeviceGetCurrentClocksEventReasons");
  if (lib->reasons == nullptr)
    lib->reasons = symbol<ReasonsFn>(lib->handle, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (init == nullptr || by_bus == nullptr || lib->clock == nullptr || lib->reasons == nullptr ||
      init() != 0) {
    return {};
  }
  lib->shutdown = symbol<ShutdownFn>(lib->handle, "nvmlShutdown");
  if (by_bus(bus_id.data(), &lib->device) != 0) return {};
  return GpuClocks(std::move(lib));
}

GpuClocks::GpuClocks(std::unique_ptr<Library> lib) : lib_(std::move(lib)) {}
GpuClocks::GpuClocks(GpuClocks&&) noexcept = default;
GpuClocks& GpuClocks::operator=(GpuClocks&&) noexcept = default;
GpuClocks::~GpuClocks() = default;

ClockSample GpuClocks::sample() const {
  ClockSample s;
  unsigned long long reasons = 0;
  if (lib_->clock(lib_->device, kSmClock, &s.sm_mhz) != 0) s.sm_mhz = 0;
  if (lib_->reasons(lib_->device, &reasons) == 0) s.reasons = reasons;
  return s;
}

}  // namespace sb
