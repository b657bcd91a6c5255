#include "schedulers/registry.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <new>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/host_driver.hpp"
#include "sims/catalog.hpp"

namespace sb {

namespace {

std::vector<SchedulerEntry>& registry() {
#define SB_LIST_ENTRY(name) name##_entry(),
  static std::vector<SchedulerEntry> entries = {SB_SCHEDULERS(SB_LIST_ENTRY)};
#undef SB_LIST_ENTRY
  return entries;
}

}  // namespace

const std::vector<SchedulerEntry>& all_schedulers() {
  return registry();
}

void add_runs(const std::vector<SchedulerEntry>& more) {
  for (const SchedulerEntry& m : more) {
    for (SchedulerEntry& e : registry()) {
      if (e.name == m.name) e.by_sim.insert(m.by_sim.begin(), m.by_sim.end());
    }
  }
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

namespace {

// The scheduler whose run of a configuration a yardstick measures against: the fastest on most
// workloads, so the untimed reference run costs least (docs/design.md §6).
constexpr const char* kReferenceScheduler = "dynamic-warp";

std::shared_ptr<const RunResult> reference_run(const RunConfig& c) {
  RunConfig reference = c;
  reference.scheduler = kReferenceScheduler;
  // The reference runs with its own parameters' defaults (its measured policy).
  for (const DeclaredParameter* p : find_scheduler(kReferenceScheduler).own_parameters())
    p->clear(reference);
  RunOptions keep;
  keep.keep_particles = true;
  return std::make_shared<const RunResult>(run(reference, keep));
}

}  // namespace

RunResult run(const RunConfig& c, const RunOptions& opt) {
  // In the test programs schedulers also run the example sims (add_runs), which find_sim does not
  // know: the tests name them here, users cannot (the command line checks --sim with find_sim).
  const SchedulerEntry& entry = find_scheduler(c.scheduler);
  if (entry.by_sim.count(c.sim) == 0) find_sim(c.sim);  // throws, naming the sims users may choose
  const RunFn& fn = entry.by_sim.at(c.sim);
  RunOptions with = opt;
  if (entry.kind == SchedulerKind::kYardstick && !with.reference) with.reference = reference_run(c);
  // Allocations the engines name themselves throw AllocationError; this catches the rest
  // (library scratch such as Thrust's), so that none ends the process as an internal error.
  try {
    return fn(c, with);
  } catch (const std::bad_alloc& e) {
    throw AllocationError(
        fmt::format("out of memory in {} on {} (an allocation of unknown size): {}", c.scheduler,
                    c.sim, e.what()));
  }
}

}  // namespace sb
