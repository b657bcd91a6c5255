// The table of every option of every sim (tests/support/option_table.hpp): it covers every
// declared parameter, each of its runs changes what its sim computes (or is marked as one that
// keeps it), and the two CPU engines agree on every run. The GPU schedulers run the same table
// (tests/gpu/test_options.cpp).
#include <gtest/gtest.h>
#include <omp.h>

#include "schedulers/registry.hpp"
#include "tests/support/option_table.hpp"

namespace sb {
namespace {

TEST(OptionTable, CoversEveryParameterOfEverySim) {
  for (const std::string& missing : option_table::uncovered())
    ADD_FAILURE() << "no row of tests/support/option_table.hpp sets " << missing;
}

class OptionTableCpu : public testing::TestWithParam<option_table::Case> {};

TEST_P(OptionTableCpu, ChangesItsSimsRunAndOpenmpEqualsSerial) {
  omp_set_num_threads(4);  // more threads than CI cores: interleavings differ from run to run
  RunConfig c = GetParam().run;
  c.scheduler = "cpu-serial";
  const RunResult serial = run(c);
  c.scheduler = "cpu-openmp";
  const RunResult openmp = run(c);
  EXPECT_EQ(openmp.digest, serial.digest);
  EXPECT_EQ(openmp.counts.final, serial.counts.final);
  EXPECT_EQ(openmp.counts.spawned, serial.counts.spawned);
  EXPECT_EQ(openmp.counts.removed, serial.counts.removed);
  EXPECT_EQ(openmp.counts.particle_steps, serial.counts.particle_steps);
  RunConfig base = option_table::base_run(c.sim);
  base.scheduler = "cpu-serial";
  const bool same_as_base = run(base).digest == serial.digest;
  EXPECT_EQ(same_as_base, !GetParam().changes_result)
      << (same_as_base ? "the option changed nothing" : "marked as keeping the base's particles");
}

INSTANTIATE_TEST_SUITE_P(EveryOption, OptionTableCpu, testing::ValuesIn(option_table::cases()),
                         [](const testing::TestParamInfo<option_table::Case>& i) {
                           return i.param.name;
                         });

}  // namespace
}  // namespace sb
