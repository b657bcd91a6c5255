// toy's frames: splitting the steps into a phase per frame changes when pictures are taken,
// never the result, and the pictures are the particles in the box.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>

#include "core/errors.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

// Column particles low enough to bounce, and so split, many times in 600 steps.
RunConfig toy_column(const std::string& scheduler, uint32_t frame_every) {
  RunConfig c;
  c.sim = "toy";
  c.scheduler = scheduler;
  sb::toy::layout().set(c, "column");
  c.init_n = 500;
  sb::steps_parameter().set(c, 600);
  if (frame_every != 0) sb::toy::frame_every().set(c, frame_every);
  return c;
}

class ToyFrames : public testing::TestWithParam<const char*> {};

TEST_P(ToyFrames, PhasePerFrameKeepsDigestAndCounts) {
  omp_set_num_threads(4);
  const RunResult whole = run(toy_column(GetParam(), 0));
  RunOptions opt;
  std::vector<uint32_t> drawn;
  for (uint32_t k = 0; k < 30; ++k) {
    opt.snapshot_phases.push_back(k);
  }
  opt.on_snapshot = [&drawn](uint32_t phase, const ParticleSet&) { drawn.push_back(phase); };
  const RunResult framed = run(toy_column(GetParam(), 20), opt);
  ASSERT_GT(whole.counts.spawned, 0u);
  EXPECT_EQ(framed.digest, whole.digest);
  EXPECT_EQ(framed.counts.initial, whole.counts.initial);
  EXPECT_EQ(framed.counts.final, whole.counts.final);
  EXPECT_EQ(framed.counts.spawned, whole.counts.spawned);
  EXPECT_EQ(framed.counts.removed, whole.counts.removed);
  EXPECT_EQ(framed.counts.particle_steps, whole.counts.particle_steps);
  EXPECT_EQ(framed.counts.peak, whole.counts.peak);
  EXPECT_EQ(drawn.size(), 30u);
}

INSTANTIATE_TEST_SUITE_P(Cpu, ToyFrames, testing::Values("cpu-serial", "cpu-openmp"),
                         [](const testing::TestParamInfo<const char*>& i) {
                           std::string name = i.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(ToyFrames, StepsPerFrameMustDivideTheSteps) {
  EXPECT_THROW(run(toy_column("cpu-serial", 7)), UsageError);
}

// One step in: the column at x = 250, in weight +1's blue, on white.
TEST(ToyFrames, PictureIsTheColumn) {
  RunConfig c = toy_column("cpu-serial", 0);
  sb::steps_parameter().set(c, 1);
  RunOptions opt;
  opt.keep_particles = true;
  const std::optional<Image> img = run(c, opt).particles->picture();
  ASSERT_TRUE(img.has_value());
  ASSERT_EQ(img->width, 500);
  ASSERT_EQ(img->height, 500);
  ASSERT_EQ(img->rgb.size(), 500u * 500 * 3);
  const auto pixel = [&img](int x, int row) { return &img->rgb[3 * (row * 500 + x)]; };
  for (int row = 10; row < 490; ++row) {
    EXPECT_LT(pixel(250, row)[0], pixel(250, row)[2]) << "weight +1 is blue, row " << row;
    EXPECT_EQ(pixel(100, row)[0], 255) << "background, row " << row;
  }
}

}  // namespace
}  // namespace sb
