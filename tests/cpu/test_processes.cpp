// A sweep leaves nothing behind and collides with no other, however it ends: its point processes
// end with it, SIGKILL included; SIGHUP stops it as SIGTERM does; its scratch folder goes with it
// or with the next sweep on the same file; a second sweep on one results file is refused whatever
// its flags. The fake runner's seed 14 hangs, so a point is always running.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <chrono>
#include <random>
#include <thread>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/process.hpp"
#include "tests/support/sweep_job.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb {
namespace {

using testing_support::eventually;
using testing_support::Outcome;
using testing_support::read_json;
using testing_support::schedbench;
using testing_support::seed_job;
using testing_support::slurp;
using testing_support::TempDir;
using testing_support::with_fake_runner;
namespace fs = std::filesystem;

// The scratch folders of sweeps on `out` (out.scratch-PID) that still exist.
size_t scratch_folders(const std::string& out) {
  size_t n = 0;
  const std::string prefix = fs::path(out).filename().string() + ".scratch-";
  for (const auto& e : fs::directory_iterator(fs::path(out).parent_path())) {
    n += e.path().filename().string().rfind(prefix, 0) == 0 ? 1 : 0;
  }
  return n;
}

// A sweep over seeds 1 and 14 started in the background; each test begins once seed 1 is
// recorded and seed 14's point (the fake runner's `sleep`, pid `hung`) runs.
class HangingSweep : public testing::Test {
 protected:
  void SetUp() override {
    sweep = testing_support::start_program(
        {SCHEDBENCH_EXE, "sweep", job, "--out", out, "--runner", with_fake_runner()},
        dir.path("sweep.out"), dir.path("sweep.err"));
    const bool running = eventually(
        [&] {
          for (const auto& child : testing_support::children_of(sweep)) {
            if (child.name == "sleep") hung = child.pid;
          }
          return hung > 0;
        },
        60);
    ASSERT_TRUE(running) << slurp(dir.path("sweep.out")) << slurp(dir.path("sweep.err"));
    ASSERT_EQ(read_json(out)["points"].size(), 1u);
  }
  // Where a test failed half-way: nothing it started runs on.
  void TearDown() override {
    if (!testing_support::has_ended(sweep)) {
      kill(sweep, SIGKILL);
      testing_support::wait_exit_code(sweep);
    }
    if (hung > 0 && !testing_support::has_ended(hung)) kill(hung, SIGKILL);
  }

  // The same sweep again with --resume and the real runner: seed 14 finishes.
  void expect_resume_finishes() {
    const Outcome resumed = schedbench(dir, {"sweep", job, "--out", out, "--resume"});
    ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
    EXPECT_EQ(read_json(out)["points"].size(), 2u);
    EXPECT_EQ(scratch_folders(out), 0u);
    EXPECT_FALSE(fs::exists(out + ".lock"));
  }

  TempDir dir;
  const std::string job = seed_job(dir, "[1, 14]"), out = dir.path("seeds.json");
  pid_t sweep = -1, hung = -1;
};

TEST_F(HangingSweep, KilledWithSigkillItTakesItsPointAlongAndResumes) {
  kill(sweep, SIGKILL);
  EXPECT_EQ(testing_support::wait_exit_code(sweep), -1);
  EXPECT_TRUE(eventually([&] { return testing_support::has_ended(hung); }, 10))
      << "point process " << hung << " outlived its sweep";
  EXPECT_EQ(scratch_folders(out), 1u);  // nothing could remove it: the next sweep does
  expect_resume_finishes();
}

TEST_F(HangingSweep, SighupStopsItAsSigtermDoes) {
  kill(sweep, SIGHUP);
  EXPECT_EQ(testing_support::wait_exit_code(sweep), 130);
  EXPECT_TRUE(testing_support::has_ended(hung));  // the sweep waited for it
  EXPECT_NE(slurp(dir.path("sweep.out")).find("interrupted"), std::string::npos);
  EXPECT_EQ(read_json(out)["points"].size(), 1u);
  EXPECT_EQ(scratch_folders(out), 0u);
  EXPECT_FALSE(fs::exists(out + ".lock"));
}

TEST_F(HangingSweep, ASecondSweepOnItsResultsFileIsRefusedWhateverItsFlags) {
  const std::string before = slurp(out);
  for (const std::vector<std::string>& flags : std::vector<std::vector<std::string>>{
           {}, {"--resume"}, {"--overwrite"}, {"--resume", "--retry-failed"}, {"--shard", "1/1"}}) {
    std::vector<std::string> args = {"sweep", job, "--out", out};
    args.insert(args.end(), flags.begin(), flags.end());
    const Outcome second = schedbench(dir, args);
    EXPECT_EQ(second.exit_code, 2) << second.out << second.err;
    EXPECT_EQ(std::count(second.err.begin(), second.err.end(), '\n'), 1) << second.err;
    EXPECT_NE(second.err.find(out + ": another schedbench (pid " + std::to_string(sweep) + ")"),
              std::string::npos)
        << second.err;
  }
  EXPECT_EQ(slurp(out), before);
  EXPECT_FALSE(testing_support::has_ended(hung));  // the first one runs on, undisturbed
  kill(sweep, SIGTERM);
  EXPECT_EQ(testing_support::wait_exit_code(sweep), 130);
  expect_resume_finishes();  // the lock went with the sweep
}

TEST(SweepProcesses, AFinishedSweepLeavesNoScratchFolderNorLockFile) {
  TempDir dir;
  const std::string out = dir.path("seeds.json");
  ASSERT_EQ(schedbench(dir, {"sweep", seed_job(dir, "[1, 2]", 1), "--out", out}).exit_code, 0);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path("")))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"catalog.json", "job.json", "seeds.json", "stderr",
                                             "stdout"}));
}

// SIGTERM or SIGHUP at seeded moments across a sweep's whole life, its first and last
// milliseconds included: whenever it comes, the sweep leaves no scratch folder and no lock, a
// results file it wrote is whole, and it ends through its handler (exit 130) or, before the handler
// is in place or after its cleanup, by the signal itself.
TEST(SweepProcesses, AStopSignalAtAnyMomentLeavesNoScratchNorLock) {
  TempDir dir;
  const std::string job = seed_job(dir, "[1, 2]", 1);
  const auto started = std::chrono::steady_clock::now();
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", dir.path("timed.json")}).exit_code, 0);
  const double life_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> at(0, life_ms + 20);
  for (int attempt = 0; attempt < 24; ++attempt) {
    const double delay_ms = attempt < 4 ? attempt * 2.0 : at(rng);  // the first ms, then anywhere
    const int signal = attempt % 2 == 0 ? SIGTERM : SIGHUP;
    const std::string out = dir.path("r" + std::to_string(attempt) + ".json");
    const pid_t pid = testing_support::start_program({SCHEDBENCH_EXE, "sweep", job, "--out", out},
                                                     dir.path("o"), dir.path("e"));
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int>(delay_ms * 1000)));
    kill(pid, signal);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const bool by_handler = WIFEXITED(status) && WEXITSTATUS(status) == 130;
    const bool by_signal = WIFSIGNALED(status) && WTERMSIG(status) == signal;
    const bool finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;  // before the signal
    EXPECT_TRUE(by_handler || by_signal || finished)
        << "attempt " << attempt << " at " << delay_ms << " ms: status " << status;
    for (const auto& e : fs::directory_iterator(dir.path(""))) {
      const std::string name = e.path().filename().string();
      EXPECT_EQ(name.find(".lock"), std::string::npos) << "attempt " << attempt << ": " << name;
      EXPECT_EQ(name.find("scratch"), std::string::npos) << "attempt " << attempt << ": " << name;
      EXPECT_EQ(name.find(".tmp."), std::string::npos) << "attempt " << attempt << ": " << name;
    }
    if (fs::exists(out)) {
      EXPECT_NO_THROW(nlohmann::json::parse(slurp(out))) << attempt;
    }
  }
}

}  // namespace
}  // namespace sb
