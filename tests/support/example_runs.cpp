// The schedulers' run functions for the tutorials' example sims, added to the registry before any
// test runs (schedulers/registry.hpp, add_runs). tests/CMakeLists.txt compiles this file with the
// schedulers' second build (SB_EXAMPLE_SIMS), in which each entry function has another name
// (naive_entry is naive_example_entry there), so the entries below are that build's.
#include "schedulers/entries.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

const bool added = [] {
#define SB_EXAMPLE_ENTRY(name) name##_entry(),
  add_runs({SB_SCHEDULERS(SB_EXAMPLE_ENTRY)});
#undef SB_EXAMPLE_ENTRY
  return true;
}();

}  // namespace
}  // namespace sb
