// Allocation failure as a clean error: memory a run cannot have is named, with its bytes, in an
// AllocationError (exit code 3) instead of ending the process (std::bad_alloc escaping an OpenMP
// region aborts it). Sizes that can be checked before the run are checked against what this
// process can have at most.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace sb {

// "1342177280 bytes (1.34 GB)".
std::string format_bytes(uint64_t bytes);

// What this process can have at most: physical memory plus swap, and below that a cgroup's
// memory.max or what the address-space limit (ulimit -v) leaves. `why` names the one that bounds.
struct HostMemoryLimit {
  uint64_t bytes;
  std::string why;
};
HostMemoryLimit host_memory_limit();

// The error for `count` elements of `element_bytes` for `what` on `memory` ("host", "device").
AllocationError allocation_error(const std::string& memory, const std::string& what, uint64_t count,
                                 uint64_t element_bytes, const std::string& available = "");

// Before a run: throws AllocationError if `count` elements of `element_bytes` for `what` (e.g.
// "--capacity 100000000") exceed the `available` bytes of `memory` ("host", "device"), which
// `says` says ("the device has N bytes free of M").
void require_memory(const std::string& memory, const std::string& what, uint64_t count,
                    uint64_t element_bytes, uint64_t available, const std::string& says);

// The same for `bytes` in all, which `made_of` may explain (" (...)", or empty).
void require_bytes(const std::string& memory, const std::string& what, uint64_t bytes,
                   const std::string& made_of, uint64_t available, const std::string& says);

// `count` value-initialised elements for `what`, or AllocationError.
template <class T>
std::vector<T> allocate_host(size_t count, const char* what) {
  try {
    return std::vector<T>(count);
  } catch (const std::bad_alloc&) {
    throw allocation_error("host", what, count, sizeof(T));
  }
}

// `count` elements (uninitialised, as `new T[count]` gives) for `what`, or AllocationError.
template <class T>
std::unique_ptr<T[]> allocate_array(size_t count, const char* what) {
  try {
    return std::unique_ptr<T[]>(new T[count]);
  } catch (const std::bad_alloc&) {
    throw allocation_error("host", what, count, sizeof(T));
  }
}

// Room in `v` for `count` elements, grown geometrically (amortised like push_back) but never past
// `most` unless `count` needs it; AllocationError naming `what` if the memory cannot be had.
// (`what` is a C string: this runs for every child, and a std::string could allocate.)
template <class T>
void make_room(std::vector<T>& v, size_t count, size_t most, const char* what) {
  if (count <= v.capacity()) return;
  const size_t want = std::max(count, std::min(most, std::max<size_t>(2 * v.capacity(), 64)));
  try {
    v.reserve(want);
  } catch (const std::bad_alloc&) {
    throw allocation_error("host", what, want, sizeof(T));
  }
}

}  // namespace sb
