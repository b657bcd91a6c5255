#include "fields/mesh_nodes.hpp"

#include <fmt/format.h>

#include <string>

#include "core/errors.hpp"

namespace sb::fields {

int power_of_two_nodes(const DeclaredParameter& grid, const RunConfig& c) {
  const uint64_t n = grid.whole(c);
  if ((n & (n - 1)) == 0) return static_cast<int>(n);
  std::string accepted;
  for (uint64_t p = 1; p <= grid.whole_hi; p *= 2) {
    if (p >= grid.whole_lo) accepted += fmt::format("{}{}", accepted.empty() ? "" : ", ", p);
  }
  throw UsageError(
      fmt::format("{}: {} is not a power of two; accepted: {} (the FFT solve's mesh "
                  "sizes)",
                  grid.flag, n, accepted));
}

}  // namespace sb::fields
