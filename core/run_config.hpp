// Everything that defines one run: the sim and scheduler it names and the value of every parameter,
// each declared once by the code that reads it (core/declared_parameter.hpp): what every run has
// (core/run_parameters.hpp) in typed members that the engines read directly; the GPU driver's
// (schedulers/device/launch_parameters.hpp), the sims' and the schedulers' own
// (Sim::parameters(), SchedulerEntry::own_parameters()) by key, read through their declarations.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace sb {

// Upper bound for particle counts (--init-n, --capacity): device slot indices and counters are
// 64-bit, and what a device holds is checked before a run (schedulers/device/driver.cu); 1e15
// particles are more than any device's memory holds, and their bytes still fit in 64 bits.
inline constexpr uint64_t kMaxCount = 1'000'000'000'000'000;
// Upper bound for steps: a particle's step counters are 32-bit.
inline constexpr uint64_t kMaxSteps = 2147483647;

struct RunConfig {
  std::string sim;
  std::string scheduler;

  // Every sim.
  uint64_t init_n = 0;
  uint64_t capacity = 100'000'000;
  uint64_t seed = 1;
  // The ranks the run takes, one GPU (or CPU engine) each (docs/design.md §10): an MPI launcher
  // starts them; a sweep launches a point of several with its --launcher.
  uint32_t ranks = 1;

  // The values given for parameters that the GPU driver, the sim or the scheduler declares, by
  // key: checked, canonical text. The owner reads them through its declarations
  // (core/declared_parameter.hpp), which hold the defaults.
  std::map<std::string, std::string> declared_values;
};

}  // namespace sb
