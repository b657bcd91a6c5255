// Memory a run cannot have is a clean error on every host engine: exit code 3, one line naming what
// was being allocated and how many bytes, never an abort, also where the allocation fails inside an
// OpenMP region. The memory is limited by an address-space limit set in the child before it execs
// schedbench (`ulimit -v`), so that the tests fail the same way on every machine.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/support/process.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb {
namespace {

using testing_support::Outcome;
using testing_support::TempDir;

// 1 GiB of address space: schedbench maps cuFFT's shared library (about 290 MB) where the toolkit
// has no static one, and must still have room to refuse and to run out.
constexpr const char* kLimitKib = "1048576";

// schedbench `args` under the address-space limit, with two OpenMP threads (each thread maps a
// stack, so that their number would change what is left).
Outcome limited_schedbench(const TempDir& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"bash", "-c",
                                   std::string("ulimit -v ") + kLimitKib + " && exec \"$0\" \"$@\"",
                                   SCHEDBENCH_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing_support::run_program(argv, dir.path(""), {"OMP_NUM_THREADS=2"});
}

// An mvp run whose population would pass any capacity: half the particles split every step.
std::vector<std::string> exploding_run(const std::string& scheduler, uint64_t capacity) {
  return {"run",
          "--sim",
          "mvp",
          "--scheduler",
          scheduler,
          "--init-n",
          "1000",
          "--steps",
          "60",
          "--split-chance",
          "50",
          "--capacity",
          std::to_string(capacity)};
}

void expect_one_line_exit_3(const Outcome& o) {
  EXPECT_EQ(o.exit_code, 3) << "(-1: ended by a signal)\n" << o.out << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
}

class HostEngineMemory : public testing::TestWithParam<std::string> {};

TEST_P(HostEngineMemory, ACapacityTheProcessCannotHoldIsRefusedBeforeTheRun) {
  TempDir dir;
  const Outcome o = limited_schedbench(dir, exploding_run(GetParam(), 100000000));
  expect_one_line_exit_3(o);
  EXPECT_NE(o.err.find("--capacity 100000000 needs "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("of host memory"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("this process can have at most "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("ulimit -v"), std::string::npos) << o.err;
}

TEST_P(HostEngineMemory, MemoryThatRunsOutDuringTheRunIsACleanErrorNamingTheBytes) {
  TempDir dir;
  // What the process can have, and a particle's size, as the refusal above states them.
  const Outcome refused = limited_schedbench(dir, exploding_run(GetParam(), 100000000));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      refused.err, m, std::regex(R"(x (\d+) B\) but this process can have at most (\d+))")))
      << refused.err;
  const uint64_t particle = std::stoull(m[1]), available = std::stoull(m[2]);
  // A capacity that fits, so the run starts; growing towards it needs more than there is, for
  // the particles and the room they move into.
  const Outcome o =
      limited_schedbench(dir, exploding_run(GetParam(), available / particle * 9 / 10));
  expect_one_line_exit_3(o);
  EXPECT_NE(o.err.find("out of host memory: cannot allocate "), std::string::npos) << o.err;
  EXPECT_TRUE(std::regex_search(o.err, std::regex(R"(allocate \d+ bytes \(.* GB\) for )")))
      << o.err;
}

INSTANTIATE_TEST_SUITE_P(Engines, HostEngineMemory, testing::Values("cpu-serial", "cpu-openmp"),
                         [](const testing::TestParamInfo<std::string>& i) {
                           return i.param == "cpu-serial" ? std::string("CpuSerial")
                                                          : std::string("CpuOpenmp");
                         });

// A field mesh the process cannot hold (pic's Poisson field on 512^3 nodes: six arrays of 1 GiB)
// is an allocation error naming the mesh, exit 3, never "internal error".
TEST(FieldMemory, AMeshTheProcessCannotHoldNamesTheMesh) {
  TempDir dir;
  const Outcome o =
      limited_schedbench(dir, {"run", "--sim", "pic", "--scheduler", "cpu-serial", "--init-n",
                               "100", "--capacity", "1000", "--field", "poisson", "--grid", "512",
                               "--poisson-steps", "1", "--mobility-steps", "1"});
  expect_one_line_exit_3(o);
  EXPECT_NE(o.err.find("the field mesh's"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("internal error"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace sb
