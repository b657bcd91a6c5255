// What a process's reductions over the ranks cost (docs/design.md §10): the bytes of the grids and
// bounds summed (ranks/reduce.hpp, ranks/device_reduce.hpp) and the time they took, counted from
// the last reset. A driver resets it as its run starts and reports it as its run ends; a process
// runs one simulation at a time.
#pragma once

#include <chrono>
#include <cstdint>

namespace sb::ranks {

struct Traffic {
  uint64_t reduced_bytes = 0;
  double reduce_ms = 0;
};

inline Traffic& traffic() {
  static Traffic counted;
  return counted;
}

// Counts one reduction of `bytes` from its construction to its destruction.
class CountedReduction {
 public:
  explicit CountedReduction(uint64_t bytes) : start_(std::chrono::steady_clock::now()) {
    traffic().reduced_bytes += bytes;
  }
  ~CountedReduction() {
    traffic().reduce_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count();
  }
  CountedReduction(const CountedReduction&) = delete;
  CountedReduction& operator=(const CountedReduction&) = delete;

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace sb::ranks
