// The examples of the tutorials (docs/design.md §8, §9): the example scheduler leaves cpu-serial's
// particles on every engine configuration, the example sim is one of those configurations (so
// cpu-openmp is checked on it in test_engines.cpp), and users see neither.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/errors.hpp"
#include "examples/examples.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog.hpp"
#include "tests/support/engine_cases.hpp"

namespace sb {
namespace {

using engine_cases::Case;
using engine_cases::cases;

// The run of `c` by `e`, which the registry need not list, resolved as resolve() does.
RunResult run_entry(const SchedulerEntry& e, RunConfig c) {
  c.scheduler = e.name;
  RunSpec spec;
  spec.config = c;
  spec.scheduler = &e;
  spec.runner = &e.by_sim.at(c.sim);
  spec.prepared = spec.runner->prepare(c);
  RunOptions keep;
  keep.keep_particles = true;
  return spec.runner->run(spec, keep);
}

class ExampleSchedulers : public testing::TestWithParam<Case> {};

TEST_P(ExampleSchedulers, SameParticlesAsCpuSerial) {
  const RunResult ref = run_entry(find_scheduler("cpu-serial"), GetParam().config);
  for (const SchedulerEntry& e : example_schedulers()) {
    const RunResult r = run_entry(e, GetParam().config);
    EXPECT_EQ(r.counts.final, ref.counts.final) << e.name;
    EXPECT_EQ(r.counts.spawned, ref.counts.spawned) << e.name;
    EXPECT_EQ(r.counts.removed, ref.counts.removed) << e.name;
    EXPECT_EQ(r.counts.particle_steps, ref.counts.particle_steps) << e.name;
    EXPECT_EQ(r.counts.peak, ref.counts.peak) << e.name;
    EXPECT_EQ(r.counts.peak_live, ref.counts.peak_live) << e.name;
    EXPECT_EQ(r.counts.record_bytes, ref.counts.record_bytes) << e.name;
    EXPECT_EQ(r.digest, ref.digest) << e.name;
    for (const std::string& line :
         r.particles->differences(*ref.particles, 5, e.name, "cpu-serial"))
      ADD_FAILURE() << line;
  }
}

INSTANTIATE_TEST_SUITE_P(Configurations, ExampleSchedulers, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return i.param.name; });

// The test programs hold both builds of the schedulers (tests/CMakeLists.txt): every scheduler
// runs every sim users see and the example sim; a build that took the other's place would not.
TEST(ExampleSims, EverySchedulerRunsEverySimAndTheExamples) {
  for (const SchedulerEntry& e : all_schedulers()) {
    for (const SimInfo& sim : all_sims())
      EXPECT_EQ(e.by_sim.count(sim.name), 1u) << e.name << " on " << sim.name;
    EXPECT_EQ(e.by_sim.count("walk"), 1u) << e.name;
  }
  EXPECT_THROW(find_sim("walk"), UsageError);  // users never see it
}

// The example sim's configuration exercises what a sim may do: spawn, die, draw.
TEST(ExampleSim, WalkersSplitAndDie) {
  for (const Case& c : cases()) {
    if (c.config.sim != "walk") continue;
    RunConfig config = c.config;
    config.scheduler = "cpu-serial";
    const RunResult r = run(config);
    EXPECT_GT(r.counts.spawned, r.counts.initial / 2) << c.name;
    EXPECT_GT(r.counts.removed, r.counts.initial / 2) << c.name;
    EXPECT_GT(r.counts.final, 0u) << c.name;
    config.seed += 1;
    EXPECT_NE(run(config).digest, r.digest) << c.name << ": the draws must matter";
  }
}

TEST(Examples, HiddenFromUsers) {
  EXPECT_THROW(find_sim("walk"), UsageError);
  for (const SimInfo& s : all_sims())
    EXPECT_NE(s.name, "walk");
  for (const SchedulerEntry& e : example_schedulers()) {
    EXPECT_THROW(find_scheduler(e.name), UsageError) << e.name;
  }
}

// Every scheduler is built for the example sims, so the tests can run them on every engine.
TEST(Examples, EverySchedulerRunsTheExampleSim) {
  for (const SchedulerEntry& e : all_schedulers())
    EXPECT_EQ(e.by_sim.count("walk"), 1u) << e.name;
}

}  // namespace
}  // namespace sb
