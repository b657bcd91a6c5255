#include "harness/io/gpu_clocks.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <nvml.h>

#include <array>

namespace sb {
namespace {

struct Slowdown {
  uint64_t bit;
  const char* name;
};
// NVML's clock event reasons that lower the clocks below what the load asks for.
constexpr std::array<Slowdown, 5> kSlowdowns = {
    {{nvmlClocksEventReasonSwPowerCap, "sw-power-cap"},
     {nvmlClocksThrottleReasonHwSlowdown, "hw-slowdown"},
     {nvmlClocksEventReasonSwThermalSlowdown, "sw-thermal-slowdown"},
     {nvmlClocksThrottleReasonHwThermalSlowdown, "hw-thermal-slowdown"},
     {nvmlClocksThrottleReasonHwPowerBrakeSlowdown, "hw-power-brake-slowdown"}}};

// The library's function `name`, typed by its declaration in nvml.h; null where the driver
// lacks it.
#define SB_NVML_SYMBOL(handle, name) reinterpret_cast<decltype(&name)>(dlsym(handle, #name))

}  // namespace

struct GpuClocks::Library {
  void* handle = nullptr;
  nvmlDevice_t device = nullptr;
  decltype(&nvmlShutdown) shutdown = nullptr;
  decltype(&nvmlErrorString) error_string = nullptr;
  decltype(&nvmlDeviceGetClockInfo) clock = nullptr;
  decltype(&nvmlDeviceGetCurrentClocksEventReasons) reasons = nullptr;
  decltype(&nvmlDeviceGetTotalEnergyConsumption) energy = nullptr;
  decltype(&nvmlDeviceSetGpuLockedClocks) lock = nullptr;
  decltype(&nvmlDeviceResetGpuLockedClocks) unlock = nullptr;

  // NVML's text for `status`.
  std::string error(nvmlReturn_t status) const {
    return error_string != nullptr ? error_string(status) : fmt::format("NVML error {}", status);
  }
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

std::optional<GpuClocks> GpuClocks::open(int device, std::string& why, const char* library) {
  auto lib = std::make_unique<Library>();
  lib->handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (lib->handle == nullptr) {
    why = fmt::format("{} cannot be opened (no NVIDIA driver)", library);
    return {};
  }
  const auto init = SB_NVML_SYMBOL(lib->handle, nvmlInit_v2);
  const auto by_bus = SB_NVML_SYMBOL(lib->handle, nvmlDeviceGetHandleByPciBusId_v2);
  lib->error_string = SB_NVML_SYMBOL(lib->handle, nvmlErrorString);
  lib->clock = SB_NVML_SYMBOL(lib->handle, nvmlDeviceGetClockInfo);
  // The newer name of the same call first; drivers before 535 have the older only.
  lib->reasons = SB_NVML_SYMBOL(lib->handle, nvmlDeviceGetCurrentClocksEventReasons);
  if (lib->reasons == nullptr)
    lib->reasons = SB_NVML_SYMBOL(lib->handle, nvmlDeviceGetCurrentClocksThrottleReasons);
  lib->energy = SB_NVML_SYMBOL(lib->handle, nvmlDeviceGetTotalEnergyConsumption);
  lib->lock = SB_NVML_SYMBOL(lib->handle, nvmlDeviceSetGpuLockedClocks);
  lib->unlock = SB_NVML_SYMBOL(lib->handle, nvmlDeviceResetGpuLockedClocks);
  if (init == nullptr || by_bus == nullptr || lib->clock == nullptr || lib->reasons == nullptr) {
    why = fmt::format("{} lacks NVML's functions", library);
    return {};
  }
  if (const nvmlReturn_t status = init(); status != NVML_SUCCESS) {
    why = "NVML does not start: " + lib->error(status);
    return {};
  }
  lib->shutdown = SB_NVML_SYMBOL(lib->handle, nvmlShutdown);
  std::array<char, 32> bus_id{};
  if (cudaDeviceGetPCIBusId(bus_id.data(), bus_id.size(), device) != cudaSuccess) {
    why = fmt::format("no CUDA device {}", device);
    return {};
  }
  if (const nvmlReturn_t status = by_bus(bus_id.data(), &lib->device); status != NVML_SUCCESS) {
    why = fmt::format("NVML does not know the device at {}: {}", bus_id.data(), lib->error(status));
    return {};
  }
  return GpuClocks(std::move(lib));
}

GpuClocks::GpuClocks(std::unique_ptr<Library> lib) : lib_(std::move(lib)) {}
GpuClocks::GpuClocks(GpuClocks&&) noexcept = default;
GpuClocks& GpuClocks::operator=(GpuClocks&&) noexcept = default;
GpuClocks::~GpuClocks() = default;

ClockSample GpuClocks::sample() const {
  ClockSample s;
  unsigned long long reasons = 0;
  if (lib_->clock(lib_->device, NVML_CLOCK_SM, &s.sm_mhz) != NVML_SUCCESS) s.sm_mhz = 0;
  if (lib_->reasons(lib_->device, &reasons) == NVML_SUCCESS) s.reasons = reasons;
  return s;
}

std::optional<uint64_t> GpuClocks::energy_mj(std::string& why) const {
  if (lib_->energy == nullptr) {
    why = "the driver's NVML has no energy counter";
    return {};
  }
  unsigned long long mj = 0;
  if (const nvmlReturn_t status = lib_->energy(lib_->device, &mj); status != NVML_SUCCESS) {
    why = "NVML's energy counter: " + lib_->error(status);
    return {};
  }
  return mj;
}

std::string GpuClocks::lock_base_clocks() {
  if (lib_->lock == nullptr || lib_->unlock == nullptr)
    return "the driver's NVML cannot lock clocks";
  const auto tdp = static_cast<unsigned>(NVML_CLOCK_LIMIT_ID_TDP);
  const nvmlReturn_t status = lib_->lock(lib_->device, tdp, tdp);
  return status == NVML_SUCCESS ? "" : lib_->error(status);
}

void GpuClocks::reset_locked_clocks() {
  if (lib_->unlock != nullptr) lib_->unlock(lib_->device);
}

}  // namespace sb
