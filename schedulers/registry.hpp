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

// Runs `c` with the scheduler and sim it names.
RunResult run(const RunConfig& c, const RunOptions& opt = {});

}  // namespace sb
