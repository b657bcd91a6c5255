// The runs of a project's build of shipped host engines (schedbench_add_schedulers,
// cmake/schedbenchSchedulers.cmake), added to the registry's schedulers of the same names before
// main runs, so that run() with scheduler "cpu-serial" runs the project's sims. Compiled with
// SB_ADDED_RUNS, the calls of that build's entry functions, renamed there (cpu_serial_entry()
// stands for cpu_serial_<name>_entry()) as tests/support/example_runs.cpp is for the example sims.
#include "schedulers/entries.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

const bool added = [] {
  add_runs({SB_ADDED_RUNS});
  return true;
}();

}  // namespace
}  // namespace sb
