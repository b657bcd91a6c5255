// The example schedulers of the tutorial "Add a scheduler" (docs/design.md §8), each defined in
// its own file here. They are built into the test programs only and are not in
// all_schedulers(), so that `schedbench list` and --scheduler show users only the real ones; the
// tests run them against cpu-serial. (The example sims: schedulers/scheduler.hpp, BuiltSims.)
#pragma once

#include <vector>

#include "schedulers/scheduler.hpp"

namespace sb {

SchedulerEntry breadth_first_entry();  // examples/breadth_first.cpp, for AllSims
// The same file built for the example sims (tests/CMakeLists.txt, sb_example_schedulers).
SchedulerEntry breadth_first_example_entry();

inline std::vector<SchedulerEntry> example_schedulers() {
  SchedulerEntry entry = breadth_first_entry();
  const SchedulerEntry on_examples = breadth_first_example_entry();
  entry.by_sim.insert(on_examples.by_sim.begin(), on_examples.by_sim.end());
  return {entry};
}

}  // namespace sb
