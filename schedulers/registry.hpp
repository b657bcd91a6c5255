// The scheduler registry: every scheduler of schedulers/list.hpp, found by name, and the run of a
// configuration (sims: sims/registry.hpp, sims/catalog.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "schedulers/run_spec.hpp"
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

// The run `c` names, resolved once: its scheduler and sim found (UsageError naming the accepted
// names) and the sim's setup built (UsageError where the sim rejects a value).
RunSpec resolve(const RunConfig& c);

// Runs a resolved run; a spec may run many times (a benchmark's repetitions), each run alike. A
// yardstick's run makes its reference run first unless `opt` holds one.
RunResult run(const RunSpec& spec, const RunOptions& opt = {});

// The reference run a yardstick's runs of `spec` share (RunOptions::reference): made once, so
// that a yardstick repeated many times runs the real configuration once, not once a repetition.
// Null for a scheduler that is not a yardstick.
std::shared_ptr<const RunResult> yardstick_reference(const RunSpec& spec);

// Resolves `c` and runs it once.
RunResult run(const RunConfig& c, const RunOptions& opt = {});

}  // namespace sb
