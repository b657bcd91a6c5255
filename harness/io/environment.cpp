#include "harness/io/environment.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

#include "core/device.hpp"
#include "harness/io/build_info.hpp"
#include "harness/io/gpu_clocks.hpp"

namespace sb {
namespace {

using nlohmann::json;

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

json host_json() {
  std::array<char, 256> name{};
  gethostname(name.data(), name.size() - 1);
  utsname u{};
  uname(&u);
  return {{"hostname", name.data()},
          {"cpu", cpu_model()},
          {"logical_cpus", std::thread::hardware_concurrency()},
          {"os", fmt::format("{} {} {}", u.sysname, u.release, u.machine)}};
}

// Driver release and current clocks come from nvidia-smi where it is installed; the CUDA API
// gives only peak clocks and the driver's CUDA version.
json nvidia_smi_json(int device) {
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != cudaSuccess) return nullptr;
  const std::string cmd = fmt::format(
      "nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.limit "
      "--format=csv,noheader,nounits -i {} 2>/dev/null",
      bus_id);
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return nullptr;
  std::array<char, 256> buf{};
  const bool got = fgets(buf.data(), buf.size(), pipe) != nullptr;
  const int rc = pclose(pipe);
  if (!got || rc != 0) return nullptr;
  std::array<char, 64> driver{};
  int sm = 0, mem = 0, sm_max = 0;
  double power = 0;
  if (std::sscanf(buf.data(), "%63[^,], %d, %d, %d, %lf", driver.data(), &sm, &mem, &sm_max,
                  &power) < 4) {
    return nullptr;
  }
  return {{"driver_version", driver.data()},
          {"sm_clock_mhz_at_start", sm},
          {"memory_clock_mhz_at_start", mem},
          {"sm_clock_max_mhz", sm_max},
          {"power_limit_w", power}};
}

// Why NVML gives no energy counter for `device`, or "" where it does: recorded once per results
// file, where the points of GPU schedulers then have no energy (docs/performance.md, "How it was
// measured").
std::string energy_unavailable(int device) {
  std::string why;
  const std::optional<GpuClocks> clocks = GpuClocks::open(device, why);
  if (clocks) clocks->energy_mj(why);
  return why;
}

json device_json() {
  const auto d = describe_device();
  if (!d) return nullptr;
  json out = {{"index", d->index},
              {"name", d->name},
              {"compute_capability", fmt::format("{}.{}", d->compute_major, d->compute_minor)},
              {"sm_count", d->sm_count},
              {"max_threads_per_sm", d->max_threads_per_sm},
              {"memory_bytes", d->memory_bytes},
              {"l2_bytes", d->l2_bytes},
              {"sm_clock_peak_mhz", d->sm_clock_peak_mhz},
              {"memory_clock_peak_mhz", d->memory_clock_peak_mhz},
              {"memory_bus_bits", d->memory_bus_bits},
              {"memory_bandwidth_peak_bytes_per_s", peak_bandwidth_bytes_per_s(*d)},
              {"cuda_driver_api", d->driver_api_version},
              {"cuda_runtime", d->runtime_version}};
  // Left out where nvidia-smi is missing: results hold no nulls (results/README.md).
  if (json smi = nvidia_smi_json(d->index); !smi.is_null()) out["nvidia_smi"] = std::move(smi);
  if (const std::string why = energy_unavailable(d->index); !why.empty())
    out["energy_unavailable"] = why;
  return out;
}

json build_json() {
  return {
      {"git_commit", kGitCommit},
      {"compiler", __VERSION__},
      {"cuda_toolkit", fmt::format("{}.{}", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10)}};
}

}  // namespace

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::array<char, 32> buf{};
  std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf.data();
}

json environment_json() {
  static const json device = device_json();
  json out = {{"host", host_json()}};
  if (!device.is_null()) out["device"] = device;  // none without a CUDA device
  out["build"] = build_json();
  out["time_utc"] = utc_now();
  return out;
}

}  // namespace sb
