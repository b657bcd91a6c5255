// The failures a user can act on. main() maps them to exit codes (README: "Exit codes").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace sb {

// Bad input: a flag, a job file, a data file. Exit code 2; nothing is run or written.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run that could not finish: exit code 3.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A spawn needed a slot beyond the capacity. `needed` is how many slots the run had asked for
// when it stopped: a lower bound of what it would need.
class CapacityError : public RunError {
 public:
  CapacityError(uint64_t capacity, uint64_t needed)
      : RunError("capacity exceeded: the run needed at least " + std::to_string(needed) +
                 " particle slots but --capacity is " + std::to_string(capacity) +
                 "; raise --capacity or shorten the run"),
        capacity_(capacity),
        needed_(needed) {}

  // A phase handed out more work than a work queue, which holds `per_slot` entries per slot of
  // the capacity, has room for (dynamic-warp --policy queue): a larger capacity is needed.
  static CapacityError of_work_queue(uint64_t capacity, uint64_t per_slot) {
    return CapacityError(capacity, capacity + 1,
                         "capacity exceeded: a phase handed out more than " +
                             std::to_string(per_slot * capacity) +
                             " children for other warps to run, what the work queue of " +
                             std::to_string(per_slot) + " entries per slot of --capacity " +
                             std::to_string(capacity) + " holds; raise --capacity");
  }

  // A streamed run (--batch): one particle and its children needed more than the `slots` device
  // slots of a batch.
  static CapacityError of_batch(uint64_t slots) {
    return CapacityError(slots, slots + 1,
                         "capacity exceeded: one particle and its children needed more than the " +
                             std::to_string(slots) + " device slots of a batch; raise --batch");
  }

  uint64_t capacity() const { return capacity_; }
  uint64_t needed() const { return needed_; }

 private:
  CapacityError(uint64_t capacity, uint64_t needed, const std::string& what)
      : RunError(what), capacity_(capacity), needed_(needed) {}

  uint64_t capacity_;
  uint64_t needed_;
};

// Memory for a run could not be had, on the host or the device: exit code 3, like any run that
// could not finish. The message names what was being allocated and how many bytes
// (core/memory.hpp writes it).
class AllocationError : public RunError {
 public:
  using RunError::RunError;
};

}  // namespace sb
