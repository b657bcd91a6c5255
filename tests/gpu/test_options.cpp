// Every option of every sim (tests/support/option_table.hpp) on every GPU scheduler: the same
// final particles as cpu-serial (digest, counts and the particles themselves). A value whose draws
// or arithmetic take another path on the device than on the host shows here, whichever option
// it is.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "schedulers/registry.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/option_table.hpp"
#include "tests/support/summary.hpp"

namespace sb {
namespace {

class GpuOptions : public testing::TestWithParam<option_table::Case> {};

TEST_P(GpuOptions, EveryGpuSchedulerGivesCpuSerialsParticles) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c = GetParam().run;
  c.scheduler = "cpu-serial";
  RunOptions keep;
  keep.keep_particles = true;
  const RunResult ref = run(c, keep);
  uint32_t identical = 0;
  const std::vector<std::string> schedulers = testing_support::gpu_schedulers();
  for (const std::string& scheduler : schedulers) {
    c.scheduler = scheduler;
    const RunResult r = run(c, keep);
    EXPECT_EQ(r.digest, ref.digest) << scheduler;
    EXPECT_EQ(r.counts.final, ref.counts.final) << scheduler;
    EXPECT_EQ(r.counts.spawned, ref.counts.spawned) << scheduler;
    EXPECT_EQ(r.counts.removed, ref.counts.removed) << scheduler;
    EXPECT_EQ(r.counts.particle_steps, ref.counts.particle_steps) << scheduler;
    for (const std::string& line :
         r.particles->differences(*ref.particles, 3, scheduler, "cpu-serial")) {
      ADD_FAILURE() << line;
    }
    identical += r.digest == ref.digest ? 1 : 0;
  }
  testing_support::summary().push_back(
      {"every GPU scheduler = cpu-serial",
       fmt::format("{} ({} final)", GetParam().name, ref.counts.final),
       identical == schedulers.size()
           ? fmt::format("identical on all {}", schedulers.size())
           : fmt::format("DIFFERENT on {} of {}", schedulers.size() - identical,
                         schedulers.size())});
}

INSTANTIATE_TEST_SUITE_P(EveryOptionOfEverySim, GpuOptions,
                         testing::ValuesIn(option_table::cases()),
                         [](const testing::TestParamInfo<option_table::Case>& i) {
                           return i.param.name;
                         });

}  // namespace
}  // namespace sb
