// The example schedulers of the tutorial "Add a scheduler" (docs/design.md §8), each defined in
// its own file here. They are built into the test programs only and are not in
// all_schedulers(), so that `schedbench list` and --scheduler show users only the real ones; the
// tests run them against cpu-serial. (The example sims are in sims/registry.hpp: ExampleSims.)
#pragma once

#include <vector>

#include "schedulers/scheduler.hpp"

namespace sb {

SchedulerEntry breadth_first_entry();  // examples/breadth_first.cpp

inline std::vector<SchedulerEntry> example_schedulers() {
  return {breadth_first_entry()};
}

}  // namespace sb
