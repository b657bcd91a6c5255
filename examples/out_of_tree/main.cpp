// Runs the example sim walk with this project's builds of schedbench's schedulers, linked against
// an installed schedbench: cpu-serial and cpu-openmp through the registry (their runs of walk
// added by schedbench_add_schedulers), the example engine breadth-first through its entry.
// Prints each run's counts and digest; exits 1 where a run's differ from cpu-serial's or walk's
// walkers did not split, die and survive, 2 where a run could not be made.
#include <fmt/format.h>

#include <exception>
#include <string>
#include <utility>

#include "core/declared_parameter.hpp"
#include "examples/examples.hpp"
#include "schedulers/registry.hpp"
#include "sims/mvp/mvp.hpp"

namespace {

// The in-tree tests' configuration of walk (walk_split_and_die, tests/support/engine_cases.hpp).
sb::RunConfig walk_config(const std::string& scheduler) {
  sb::RunConfig c;
  c.sim = "walk";
  c.scheduler = scheduler;
  c.init_n = 3000;
  sb::steps_parameter().set(c, 600);
  sb::mvp::split_chance().set(c, 1);
  return c;
}

// A run of an entry that the registry does not list, resolved as sb::resolve() resolves one.
sb::RunResult run_entry(const sb::SchedulerEntry& e) {
  sb::RunSpec spec;
  spec.config = walk_config(e.name);
  spec.scheduler = &e;
  spec.runner = &e.by_sim.at(spec.config.sim);
  spec.prepared = spec.runner->prepare(spec.config);
  return sb::run(spec);
}

void print(const std::string& name, const sb::RunResult& r) {
  fmt::print("{}: final {} spawned {} removed {} particle-steps {} peak {} digest {:016x}\n", name,
             r.counts.final, r.counts.spawned, r.counts.removed, r.counts.particle_steps,
             r.counts.peak, r.digest);
}

// Whether `r` has the counts and the digest of `ref`: every engine's particles are cpu-serial's.
bool same(const sb::RunResult& r, const sb::RunResult& ref) {
  const sb::Counts& a = r.counts;
  const sb::Counts& b = ref.counts;
  return a.final == b.final && a.spawned == b.spawned && a.removed == b.removed &&
         a.particle_steps == b.particle_steps && a.peak == b.peak && a.peak_live == b.peak_live &&
         r.digest == ref.digest;
}

int check() {
  const sb::RunResult ref = sb::run(walk_config("cpu-serial"));
  print("cpu-serial", ref);
  int failures = 0;
  if (ref.counts.spawned == 0 || ref.counts.removed == 0 || ref.counts.final == 0) {
    fmt::print(stderr, "cpu-serial: walk's walkers must split, die and survive\n");
    ++failures;
  }
  const std::pair<std::string, sb::RunResult> runs[] = {
      {"cpu-openmp", sb::run(walk_config("cpu-openmp"))},
      {"breadth-first", run_entry(sb::breadth_first_entry())}};
  for (const auto& [name, r] : runs) {
    print(name, r);
    if (same(r, ref)) continue;
    fmt::print(stderr, "{}: counts or digest differ from cpu-serial's\n", name);
    ++failures;
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main() {
  try {
    return check();
  } catch (const std::exception& e) {
    fmt::print(stderr, "walk_check: {}\n", e.what());
    return 2;
  }
}
