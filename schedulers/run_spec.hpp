// A run resolved once (docs/design.md §4): its configuration, the scheduler and sim it names, and
// the sim's setup built from it (air's cross-section table, pic's levels), passed down to the
// engine, so that nothing below the command line or the job point looks a name up again or
// builds a table twice.
#pragma once

#include <memory>

#include "core/run_config.hpp"
#include "core/sim_state.hpp"
#include "schedulers/scheduler.hpp"
#include "sims/catalog.hpp"

namespace sb {

struct RunSpec {
  RunConfig config;
  const SchedulerEntry* scheduler = nullptr;
  const SimRunner* runner = nullptr;  // the scheduler's for the sim
  // The catalog's entry; null for the tests' example sims, which users cannot name.
  const SimInfo* sim = nullptr;
  PreparedSetup prepared;

  // The setup, as the type of the sim (or variant) the engine runs.
  template <class Sim>
  std::shared_ptr<const SimSetup<Sim>> setup() const {
    return std::static_pointer_cast<const SimSetup<Sim>>(prepared.setup);
  }
  const PhasePlan& plan() const { return prepared.plan; }
};

}  // namespace sb
