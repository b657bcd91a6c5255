#include "core/memory.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <fstream>
#include <optional>

namespace sb {
namespace {

// The address space this process maps now (the first field of /proc/self/statm, in pages).
uint64_t mapped_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  statm >> pages;
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// memory.max of this process's cgroup (v2), if it sets one.
std::optional<uint64_t> cgroup_limit() {
  std::ifstream cgroup("/proc/self/cgroup");
  std::string line;
  while (std::getline(cgroup, line)) {
    if (line.rfind("0::", 0) != 0) continue;
    std::ifstream max("/sys/fs/cgroup" + line.substr(3) + "/memory.max");
    uint64_t bytes = 0;
    if (max >> bytes) return bytes;  // "max" (no limit) does not read as a number
  }
  return std::nullopt;
}

}  // namespace

std::string format_bytes(uint64_t bytes) {
  return fmt::format("{} bytes ({:.3g} GB)", bytes, static_cast<double>(bytes) / 1e9);
}

HostMemoryLimit host_memory_limit() {
  HostMemoryLimit limit{UINT64_MAX, "physical memory and swap"};
  struct sysinfo info {};
  if (sysinfo(&info) == 0) {
    limit.bytes = (uint64_t{info.totalram} + info.totalswap) * info.mem_unit;
  }
  if (const std::optional<uint64_t> cg = cgroup_limit(); cg && *cg < limit.bytes) {
    limit = {*cg, "the cgroup's memory.max"};
  }
  struct rlimit as {};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const uint64_t used = mapped_bytes();
    const uint64_t left = as.rlim_cur > used ? as.rlim_cur - used : 0;
    if (left < limit.bytes) limit = {left, "what the address-space limit (ulimit -v) leaves"};
  }
  return limit;
}

AllocationError allocation_error(const std::string& memory, const std::string& what, uint64_t count,
                                 uint64_t element_bytes, const std::string& available) {
  return AllocationError(fmt::format("out of {} memory: cannot allocate {} for {} ({} x {} B){}",
                                     memory, format_bytes(count * element_bytes), what, count,
                                     element_bytes, available.empty() ? "" : "; " + available));
}

void require_memory(const std::string& memory, const std::string& what, uint64_t count,
                    uint64_t element_bytes, uint64_t available, const std::string& says) {
  require_bytes(memory, what, count * element_bytes,
                fmt::format(" ({} x {} B)", count, element_bytes), available, says);
}

void require_bytes(const std::string& memory, const std::string& what, uint64_t bytes,
                   const std::string& made_of, uint64_t available, const std::string& says) {
  if (bytes <= available) return;
  throw AllocationError(fmt::format("{} needs {} of {} memory{} but {}; lower it", what,
                                    format_bytes(bytes), memory, made_of, says));
}

}  // namespace sb
