#include "schedulers/registry.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <new>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/sim_state.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/host_driver.hpp"
#include "sims/registry.hpp"

namespace sb {

const std::vector<SchedulerEntry>& all_schedulers() {
  static const std::vector<SchedulerEntry> entries = {
      cpu_serial_entry(),
      cpu_openmp_entry(),
      naive_entry(),
      naive_buffered_entry(),
      huge_iterate_entry(),
      static_iterate_entry(),
      static_iterate_coop_entry(),
      cpu_sync_entry(),
      gpu_iterate_global_entry(),
      gpu_iterate_organised_entry(),
      gpu_iterate_grid_sync_entry(),
      static_full_entry(),
      dynamic_thread_entry(),
      dynamic_block_entry(),
      dynamic_warp_entry(),
      event_compact_entry(),
      bound_entry(),
  };
  return entries;
}

const SchedulerEntry& find_scheduler(const std::string& name) {
  std::vector<std::string> names;
  for (const SchedulerEntry& e : all_schedulers()) {
    if (e.name == name) return e;
    names.push_back(e.name);
  }
  throw UsageError(fmt::format("--scheduler: '{}' is not a scheduler; accepted: {}",
                               printable(name), fmt::join(names, ", ")));
}

const std::vector<SimInfo>& all_sims() {
  static const std::vector<SimInfo> sims = [] {
    std::vector<SimInfo> out;
    AllSims::for_each([&out](auto* sim) {
      using Sim = std::remove_pointer_t<decltype(sim)>;
      out.push_back(
          {Sim::kName, Sim::kDescription,
           std::vector<std::string>(std::begin(Sim::kParameters), std::end(Sim::kParameters)),
           [](const RunConfig& c) { HostState<Sim> state(c); }, kHasPicture<Sim>,
           [](const RunConfig& c) { return Sim::phases(c).count; }});
    });
    return out;
  }();
  return sims;
}

const SimInfo& find_sim(const std::string& name) {
  std::vector<std::string> names;
  for (const SimInfo& s : all_sims()) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  throw UsageError(fmt::format("--sim: '{}' is not a sim; accepted: {}", printable(name),
                               fmt::join(names, ", ")));
}

RunResult run(const RunConfig& c, const RunOptions& opt) {
  // Schedulers also run the example sims (sims/registry.hpp), which find_sim does not know: the
  // tests name them here, users cannot (the command line checks --sim with find_sim first).
  const std::map<std::string, RunFn>& by_sim = find_scheduler(c.scheduler).by_sim;
  if (by_sim.count(c.sim) == 0) find_sim(c.sim);  // throws, naming the sims users may choose
  const RunFn& fn = by_sim.at(c.sim);
  // Allocations the engines name themselves throw AllocationError; this catches the rest
  // (library scratch such as Thrust's), so that none ends the process as an internal error.
  try {
    return fn(c, opt);
  } catch (const std::bad_alloc& e) {
    throw AllocationError(
        fmt::format("out of memory in {} on {} (an allocation of unknown size): {}", c.scheduler,
                    c.sim, e.what()));
  }
}

}  // namespace sb
