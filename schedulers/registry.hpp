// The scheduler registry: every scheduler of schedulers/list.hpp, found by name, and the run of a
// configuration (sims: sims/registry.hpp, sims/catalog.hpp).
#pragma once

#include <string>
#include <vector>

#include "schedulers/scheduler.hpp"

namespace sb {

// Every scheduler, in the order `schedbench list` shows them.
const std::vector<SchedulerEntry>& all_schedulers();

// The scheduler called `name`; UsageError naming the accepted names if there is none.
const SchedulerEntry& find_scheduler(const std::string& name);

// Adds the run functions of `more`, entries of the same names built for other sims, to the
// registry's (the tests' build of the schedulers for the example sims, tests/support/
// example_runs.cpp); before any run.
void add_runs(const std::vector<SchedulerEntry>& more);

// Runs `c` with the scheduler and sim it names.
RunResult run(const RunConfig& c, const RunOptions& opt = {});

}  // namespace sb
