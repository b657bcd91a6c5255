#include "schedulers/registry.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <new>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "ranks/communicator.hpp"
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

// How `e` runs the sim `sim`. In the test programs schedulers also run the example sims
// (add_runs), which the catalog does not list: the tests name them here, users cannot (the
// command line checks --sim). A project's program may build only some schedulers for its sims
// (schedbench_add_schedulers): the others do not run them.
const SimRunner& runner_of(const SchedulerEntry& e, const std::string& sim) {
  const auto runner = e.by_sim.find(sim);
  if (runner != e.by_sim.end()) return runner->second;
  find_sim(sim);  // throws, naming the sims, where there is no such sim
  std::vector<std::string> built;
  for (const SchedulerEntry& other : all_schedulers()) {
    if (other.by_sim.count(sim) > 0) built.push_back(other.name);
  }
  throw UsageError(fmt::format("--scheduler: '{}' is not built for sim '{}' in this program; "
                               "accepted: {}",
                               e.name, sim, fmt::join(built, ", ")));
}

// The scheduler whose run of a configuration a yardstick measures against: the fastest on most
// workloads, so the untimed reference run costs least (docs/design.md §6).
constexpr const char* kReferenceScheduler = "dynamic-warp";

}  // namespace

std::shared_ptr<const RunResult> yardstick_reference(const RunSpec& spec) {
  if (spec.scheduler->kind != SchedulerKind::kYardstick) return nullptr;
  // The same sim and setup with the reference scheduler, at its own parameters' defaults (its
  // measured policy).
  RunSpec reference = spec;
  reference.config.scheduler = kReferenceScheduler;
  reference.scheduler = &find_scheduler(kReferenceScheduler);
  reference.runner = &runner_of(*reference.scheduler, spec.config.sim);
  for (const DeclaredParameter* p : reference.scheduler->own_parameters())
    p->clear(reference.config);
  RunOptions keep;
  keep.keep_particles = true;
  return std::make_shared<const RunResult>(run(reference, keep));
}

RunSpec resolve(const RunConfig& c) {
  RunSpec spec;
  spec.config = c;
  spec.scheduler = &find_scheduler(c.scheduler);
  spec.sim = listed_sim(c.sim);
  const int ranks = ranks::world().size();
  if (ranks > 1 && spec.scheduler->kind == SchedulerKind::kYardstick) {
    throw UsageError(fmt::format("{} on {} ranks: a yardstick runs on one rank; accepted: one rank",
                                 c.scheduler, ranks));
  }
  spec.runner = &runner_of(*spec.scheduler, c.sim);
  spec.prepared = spec.runner->prepare(c);
  return spec;
}

RunResult run(const RunSpec& spec, const RunOptions& opt) {
  RunOptions with = opt;
  if (!with.reference) with.reference = yardstick_reference(spec);
  // Allocations the engines name themselves throw AllocationError; this catches the rest
  // (library scratch such as Thrust's), so that none ends the process as an internal error.
  try {
    return spec.runner->run(spec, with);
  } catch (const std::bad_alloc& e) {
    throw AllocationError(
        fmt::format("out of memory in {} on {} (an allocation of unknown size): {}",
                    spec.config.scheduler, spec.config.sim, e.what()));
  }
}

RunResult run(const RunConfig& c, const RunOptions& opt) {
  return run(resolve(c), opt);
}

}  // namespace sb
