// What a project's build of schedbench's schedulers adds before main runs
// (schedbench_add_schedulers, cmake/schedbenchSchedulers.cmake):
//  - its sims (sb::ProjectSims, SB_SIMS_HEADER) to the catalog, so that the command line, job
//    files and `schedbench list` name them like the shipped sims;
//  - the runs of its builds of shipped schedulers to the registry's schedulers of the same names,
//    so that a run with scheduler "dynamic-warp" runs the project's sims. SB_ADDED_RUNS lists
//    that build's schedulers (SB_ADDED_ENTRY(dynamic_warp) ...), their entry functions
//    renamed there (dynamic_warp_entry stands for dynamic_warp_<name>_entry), as
//    tests/support/example_runs.cpp adds the example sims' runs;
//  - the installed package's data (SB_DATA_ROOT), which the shipped sims read.
#include "core/data_file.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog_entry.hpp"

namespace sb {
namespace {

const bool added = [] {
  add_sims(sim_infos<ProjectSims>());
#define SB_ADDED_ENTRY(name) name##_entry(),
  add_runs({SB_ADDED_RUNS});
#undef SB_ADDED_ENTRY
  add_data_root(SB_DATA_ROOT);
  return true;
}();

}  // namespace
}  // namespace sb
