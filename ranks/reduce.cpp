#include "ranks/reduce.hpp"

#include <cstring>

#include "ranks/traffic.hpp"

namespace sb::ranks {
namespace {

// Doubles as integers of the same order: a positive one's bits with the sign bit set, a negative
// one's bits inverted.
uint64_t ordered(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return (u >> 63) != 0 ? ~u : u | (uint64_t{1} << 63);
}

double from_ordered(uint64_t u) {
  u = (u >> 63) != 0 ? u & ~(uint64_t{1} << 63) : ~u;
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// The box around every rank's: the least lo and the most hi, through f, a map to integers that
// keeps the order, and its inverse g.
template <class T, class F, class G>
void box_bounds(Communicator& comm, T* lo, T* hi, size_t n, F f, G g) {
  if (comm.size() == 1) return;
  const CountedReduction counted(2 * n * sizeof(uint64_t));
  std::vector<uint64_t> u(2 * n);
  for (size_t i = 0; i < n; ++i) {
    u[i] = ~f(lo[i]);  // the most of ~f is the least of f
    u[n + i] = f(hi[i]);
  }
  comm.max(u);
  for (size_t i = 0; i < n; ++i) {
    lo[i] = g(~u[i]);
    hi[i] = g(u[n + i]);
  }
}

constexpr uint64_t kIntBias = uint64_t{1} << 31;  // an int plus this is at least 0

}  // namespace

void sum(Communicator& comm, int64_t* values, uint64_t n) {
  if (comm.size() == 1) return;
  const CountedReduction counted(n * sizeof(int64_t));
  comm.sum(reinterpret_cast<uint64_t*>(values), n);
}

void sum(Communicator& comm, uint32_t* values, uint64_t n) {
  if (comm.size() == 1) return;
  const CountedReduction counted(n * sizeof(uint64_t));
  std::vector<uint64_t> wide(values, values + n);
  comm.sum(wide);
  for (uint64_t i = 0; i < n; ++i)
    values[i] = static_cast<uint32_t>(wide[i]);
}

void bounds(Communicator& comm, double* lo, double* hi, size_t n) {
  box_bounds(comm, lo, hi, n, ordered, from_ordered);
}

void bounds(Communicator& comm, int* lo, int* hi, size_t n) {
  box_bounds(
      comm, lo, hi, n, [](int x) { return static_cast<uint64_t>(int64_t{x} + kIntBias); },
      [](uint64_t u) { return static_cast<int>(static_cast<int64_t>(u) - kIntBias); });
}

void sum(Communicator& comm, Int128* values, size_t n) {
  if (comm.size() == 1 || n == 0) return;
  __extension__ typedef unsigned __int128 Bits;
  std::vector<uint64_t> mine;
  for (size_t i = 0; i < n; ++i) {
    const auto bits = static_cast<Bits>(values[i]);
    mine.push_back(static_cast<uint64_t>(bits >> 64));
    mine.push_back(static_cast<uint64_t>(bits));
  }
  const std::vector<uint64_t> all = comm.gather(mine);
  for (size_t i = 0; i < n; ++i) {
    Bits total = 0;
    for (size_t r = 0; r < all.size(); r += 2 * n)
      total += (static_cast<Bits>(all[r + 2 * i]) << 64) | all[r + 2 * i + 1];
    values[i] = static_cast<Int128>(total);
  }
}

}  // namespace sb::ranks
