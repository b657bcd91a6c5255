// One simulation over the GPUs of a node (docs/design.md §10): GPU schedulers on 2 to 4 ranks
// under mpirun, a GPU each, against cpu-serial's one-rank run; more ranks than GPUs refused.
// Reported skipped without two GPUs or without mpirun.
#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/gpu.hpp"
#include "tests/support/ranks.hpp"
#include "tests/support/summary.hpp"

namespace sb {
namespace {

using testing_support::mpirun;
using testing_support::Outcome;
using testing_support::result_of;
using testing_support::run_on_ranks;
using testing_support::TempDir;

int gpu_count() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

// Skips the test (returning from it) without two GPUs or without mpirun.
#define SB_REQUIRE_GPUS_AND_MPIRUN()                                    \
  do {                                                                  \
    if (gpu_count() < 2) GTEST_SKIP() << "fewer than two CUDA devices"; \
    if (testing_support::mpirun().empty()) GTEST_SKIP() << "no mpirun"; \
  } while (0)

struct GpuRankCase {
  const char* name;
  const char* scheduler;
  std::vector<std::string> workload;
};

class GpuRanks : public testing::TestWithParam<GpuRankCase> {};

TEST_P(GpuRanks, EveryGpuCountGivesCpuSerialsRun) {
  SB_REQUIRE_GPUS_AND_MPIRUN();
  TempDir dir;
  std::vector<std::string> args = GetParam().workload;
  args.insert(args.end(), {"--scheduler", "cpu-serial"});
  const Outcome one = run_on_ranks(0, args, dir, "one.json");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const nlohmann::json want = result_of(dir, "one.json");
  args.back() = GetParam().scheduler;
  for (int n = 2; n <= std::min(gpu_count(), 4); ++n) {
    const std::string json = "n" + std::to_string(n) + ".json";
    const Outcome o = run_on_ranks(n, args, dir, json);
    ASSERT_EQ(o.exit_code, 0) << n << " ranks: " << o.err;
    testing_support::expect_same_run(result_of(dir, json), want,
                                     std::to_string(n) + " ranks of " + GetParam().scheduler);
    testing_support::summary().push_back({"ranks: GPUs vs cpu-serial",
                                          fmt::format("{} on {} GPUs", GetParam().name, n),
                                          "same digest, counts, observables"});
  }
}

INSTANTIATE_TEST_SUITE_P(
    Schedulers, GpuRanks,
    testing::Values(
        GpuRankCase{
            "mvp_dynamic_warp",
            "dynamic-warp",
            {"--sim", "mvp", "--init-n", "100001", "--steps", "500", "--split-chance", "0.5"}},
        GpuRankCase{"mvp_naive",
                    "naive",
                    {"--sim", "mvp", "--init-n", "10001", "--steps", "200", "--split-chance", "1"}},
        GpuRankCase{"toy_static_full",
                    "static-full",
                    {"--sim", "toy", "--init-n", "2001", "--steps", "600", "--layout", "column",
                     "--frame-every", "50"}},
        GpuRankCase{"air_dynamic_warp",
                    "dynamic-warp",
                    {"--sim", "air", "--init-n", "3001", "--reduced-field", "400", "--phases", "3",
                     "--phase-time", "3e-12", "--max-energy", "1000", "--extrapolate", "constant"}},
        // Streamed runs (schedulers/device/batches.cuh): each rank streams its share.
        GpuRankCase{"mvp_streamed_dynamic_warp",
                    "dynamic-warp",
                    {"--sim", "mvp", "--init-n", "30001", "--steps", "200", "--split-chance", "1",
                     "--batch", "5000"}},
        GpuRankCase{"air_streamed_dynamic_block",
                    "dynamic-block",
                    {"--sim", "air", "--init-n", "3001", "--reduced-field", "400", "--phases", "3",
                     "--phase-time", "3e-12", "--max-energy", "1000", "--extrapolate", "constant",
                     "--batch", "2000"}},
        GpuRankCase{"pic_mock_streamed_dynamic_block",
                    "dynamic-block",
                    {"--sim", "pic", "--init-n", "20001", "--poisson-steps", "3",
                     "--mobility-steps", "100", "--batch", "3000"}},
        GpuRankCase{"air_cpu_sync",
                    "cpu-sync",
                    {"--sim", "air", "--init-n", "2999", "--reduced-field", "400", "--phases", "3",
                     "--phase-time", "3e-12", "--max-energy", "1000", "--extrapolate", "constant"}},
        // The device grids, summed over the ranks: pic's mock counts, pic's Poisson charge and
        // air's space charge (solved on the host, as cpu-serial does, for its digest).
        GpuRankCase{"pic_mock_dynamic_warp",
                    "dynamic-warp",
                    {"--sim", "pic", "--init-n", "20001", "--poisson-steps", "3",
                     "--mobility-steps", "100"}},
        GpuRankCase{
            "pic_poisson_dynamic_warp",
            "dynamic-warp",
            {"--sim", "pic", "--init-n", "20001", "--poisson-steps", "2", "--mobility-steps", "50",
             "--field", "poisson", "--grid", "32", "--field-solver", "host"}},
        GpuRankCase{"air_space_charge_dynamic_warp", "dynamic-warp",
                    testing_support::air_space_charge_args("2001", {"--field-solver", "host"})}),
    [](const testing::TestParamInfo<GpuRankCase>& c) { return std::string(c.param.name); });

TEST(GpuRanksFaults, MoreRanksThanGpusAreRefused) {
  SB_REQUIRE_GPUS_AND_MPIRUN();
  TempDir dir;
  const Outcome o = run_on_ranks(
      gpu_count() + 1,
      {"--sim", "mvp", "--scheduler", "dynamic-warp", "--init-n", "100", "--steps", "5"}, dir,
      "r.json");
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_NE(o.err.find("ranks on this node but"), std::string::npos) << o.err;
}

// Where NCCL's module cannot be loaded (NCCL missing), a GPU run on several ranks ends with one
// error, not a crash.
TEST(GpuRanksFaults, NcclMissingAtRunTimeIsOneError) {
  SB_REQUIRE_GPUS_AND_MPIRUN();
  TempDir dir;
  const std::string exe = testing_support::schedbench_without(dir, "libsb_nccl.so");
  const Outcome o = testing_support::run_program(
      testing_support::ranks_argv(
          2, {"--sim", "mvp", "--scheduler", "dynamic-warp", "--init-n", "100", "--steps", "5"}, "",
          exe),
      dir.path("."));
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_NE(o.err.find("2 ranks on GPUs need NCCL to sum their grids and move particles between "
                       "GPUs, but it cannot be loaded: "),
            std::string::npos)
      << o.err;
}

}  // namespace
}  // namespace sb
