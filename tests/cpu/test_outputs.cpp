// Where schedbench writes (README: "Output files"): every output option takes a regular file or
// a new name and refuses anything else before any work starts; missing parent folders are made
// when the first file is written; a write that fails names the file and the system's reason and
// leaves nothing under the final name. And what a user meets on the way: --version, help, the
// start banner, overwriting, the progress of a sweep.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include "core/device.hpp"
#include "harness/cli/run_progress.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/sweep/point_process.hpp"
#include "harness/sweep/progress.hpp"
#include "tests/support/process.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb {
namespace {

namespace fs = std::filesystem;
using testing_support::Outcome;
using testing_support::slurp;
using testing_support::TempDir;

Outcome schedbench(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), SCHEDBENCH_EXE);
  return testing_support::run_program(args, dir.path(""));
}

size_t lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// The names in `dir`, but for the test's own stdout and stderr files.
std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name != "stdout" && name != "stderr") names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

mode_t lstat_type(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

std::string cpu_job(const TempDir& dir) {
  return dir.write("job.json", R"({"name": "out", "sims": ["mvp"], "schedulers": ["cpu-serial"],
    "repetitions": 1, "warmup": 0, "axes": {"init_n": 50, "steps": 10, "seed": [1, 2]}})");
}

// --- Every output option refuses what is not a regular file or a new name. ---

// Something that is not a regular file, made at `path`: what the test puts where an output goes.
struct Special {
  const char* name;
  const char* described;  // as the error line describes it
};

const Special kSpecials[] = {{"fifo", "a FIFO"},           {"symlink", "a symbolic link"},
                             {"socket", "a socket"},       {"device", "a character device"},
                             {"directory", "a directory"}, {"regular", "a regular file"},
                             {"empty", "an empty name"}};

// Makes `s` at `path`; false where this process may not (a device node needs root). A link
// points at what the option takes, a folder or a file: the link itself is what is refused.
bool make_special(const std::string& s, const std::string& path, bool folder, const TempDir& dir) {
  if (s == "fifo") return mkfifo(path.c_str(), 0644) == 0;
  if (s == "symlink") {
    const std::string target = dir.path("target");
    if (folder ? !fs::create_directory(target) : dir.write("target", "keep").empty()) return false;
    return symlink(target.c_str(), path.c_str()) == 0;
  }
  if (s == "socket") {
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    const bool made = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    close(fd);
    return made;
  }
  if (s == "device") return mknod(path.c_str(), S_IFCHR | 0600, makedev(1, 7)) == 0;  // /dev/full
  if (s == "directory") return fs::create_directory(path);
  if (s == "regular") return !dir.write(fs::path(path).filename().string(), "keep").empty();
  return true;  // "empty": nothing to make
}

struct OutputOption {
  const char* name;
  const char* option;  // as the error line names it
  bool folder;         // it names a folder of output files
  std::vector<std::string> (*args)(const std::string& job, const std::string& path);
};

const OutputOption kOutputOptions[] = {
    {"run_json", "--json", false,
     [](const std::string&, const std::string& p) -> std::vector<std::string> {
       return {"run", "--sim",  "mvp", "--scheduler", "cpu-serial", "--init-n", "10", "--steps",
               "5",   "--json", p};
     }},
    {"run_frames", "--frames", true,
     [](const std::string&, const std::string& p) -> std::vector<std::string> {
       return {"run", "--sim",    "toy", "--scheduler", "cpu-serial", "--init-n", "10", "--steps",
               "5",   "--frames", p};
     }},
    {"run_density_png", "--density-png", true,
     [](const std::string&, const std::string& p) -> std::vector<std::string> {
       return {"run",        "--sim",         "toy", "--scheduler",
               "cpu-serial", "--init-n",      "10",  "--steps",
               "5",          "--density-png", p};
     }},
    {"sweep_out", "--out", false,
     [](const std::string& job, const std::string& p) -> std::vector<std::string> {
       return {"sweep", job, "--out", p};
     }},
    {"merge", "results", false,
     [](const std::string&, const std::string& p) -> std::vector<std::string> {
       return {"merge", p};
     }},
    {"table_out", "--out", false,
     [](const std::string&, const std::string& p) -> std::vector<std::string> {
       return {"table", "--sim", "pic", "--out", p};
     }},
    {"submit_script", "--script", false,
     [](const std::string& job, const std::string& p) -> std::vector<std::string> {
       return {"submit", job, "--slurm", "--script", p};
     }},
    {"submit_out", "--out", false,
     [](const std::string& job, const std::string& p) -> std::vector<std::string> {
       return {"submit", job, "--slurm", "--out", p};
     }},
    {"ab_out", "--out", false,
     [](const std::string& job, const std::string& p) -> std::vector<std::string> {
       return {"ab", job, "--a", SCHEDBENCH_EXE, "--b", SCHEDBENCH_EXE, "--out", p};
     }},
    {"compare_calibrate", "--calibrate", false,
     [](const std::string& job, const std::string& p) -> std::vector<std::string> {
       return {"compare", job, job, "--calibrate", p};
     }},
};

void PrintTo(const OutputOption& o, std::ostream* os) {
  *os << o.name;
}

void PrintTo(const Special& s, std::ostream* os) {
  *os << s.name;
}

class OutputRefused : public testing::TestWithParam<std::tuple<OutputOption, Special>> {};

TEST_P(OutputRefused, ExitTwoOneLineNamingOptionAndPathNothingTouched) {
  const auto& [option, special] = GetParam();
  const std::string kind = special.name;
  TempDir dir;
  const std::string job = cpu_job(dir);
  const std::string path = kind == "empty" ? "" : dir.path("out");
  if (!make_special(kind, path, option.folder, dir)) {
    GTEST_SKIP() << "cannot make a " << kind << " here (a device node needs root)";
  }
  const mode_t type = lstat_type(path);
  const std::vector<std::string> before = entries(dir.path(""));

  const Outcome o = schedbench(dir, option.args(job, path));
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1u) << o.err;
  const std::string line = std::string(option.option) + ": '" + path + "' is " + special.described;
  EXPECT_NE(o.err.find(line), std::string::npos) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_EQ(entries(dir.path("")), before);
  if (!path.empty()) {
    EXPECT_EQ(lstat_type(path), type);
  }
  if (kind == "symlink" && !option.folder) {
    EXPECT_EQ(slurp(dir.path("target")), "keep");
  }
}

// Every option with every kind it refuses: all but a directory for a folder option, all but a
// regular file for a file option.
std::vector<std::tuple<OutputOption, Special>> refusals() {
  std::vector<std::tuple<OutputOption, Special>> out;
  for (const OutputOption& option : kOutputOptions) {
    for (const Special& special : kSpecials) {
      if (std::string(special.name) != (option.folder ? "directory" : "regular"))
        out.emplace_back(option, special);
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Outputs, OutputRefused, testing::ValuesIn(refusals()),
                         [](const testing::TestParamInfo<std::tuple<OutputOption, Special>>& i) {
                           return std::string(std::get<0>(i.param).name) + "_" +
                                  std::get<1>(i.param).name;
                         });

// A file the run would write inside its folder follows the same rule, before the run starts.
TEST(Outputs, AFileInsideAnOutputFolderIsCheckedBeforeTheRun) {
  TempDir dir;
  const std::string frames = dir.path("frames");
  fs::create_directory(frames);
  ASSERT_EQ(mkfifo((frames + "/toy.gif").c_str(), 0644), 0);
  const Outcome o = schedbench(dir, {"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n",
                                     "10", "--steps", "10", "--frames", frames});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1u) << o.err;
  EXPECT_NE(o.err.find("--frames: '" + frames + "/toy.gif' is a FIFO"), std::string::npos) << o.err;
  EXPECT_EQ(entries(frames), std::vector<std::string>{"toy.gif"});
  EXPECT_EQ(lstat_type(frames + "/toy.gif"), static_cast<mode_t>(S_IFIFO));
}

// --- Missing parent folders: made by every command, when it first writes. ---

TEST(Outputs, MissingParentFoldersAreMadeByEveryCommand) {
  TempDir dir;
  const std::string job = cpu_job(dir);
  const std::vector<std::vector<std::string>> commands = {
      {"run", "--sim", "mvp", "--scheduler", "cpu-serial", "--init-n", "10", "--steps", "5",
       "--json", dir.path("a/b/r.json")},
      {"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n", "10", "--steps", "5",
       "--frames", dir.path("c/d/frames")},
      {"sweep", job, "--out", dir.path("e/f/s.json")},
      {"table", "--sim", "pic", "--out", dir.path("g/h/t.txt")},
      {"submit", job, "--slurm", "--script", dir.path("i/j/s.sh")}};
  for (const auto& args : commands) {
    const Outcome o = schedbench(dir, args);
    EXPECT_EQ(o.exit_code, 0) << args[0] << ": " << o.err;
  }
  for (const char* made :
       {"a/b/r.json", "c/d/frames/toy.gif", "e/f/s.json", "g/h/t.txt", "i/j/s.sh"}) {
    EXPECT_EQ(lstat_type(dir.path(made)), static_cast<mode_t>(S_IFREG)) << made;
  }
  EXPECT_EQ(access(dir.path("i/j/s.sh").c_str(), X_OK), 0);  // the script is executable
}

TEST(Outputs, AParentThatIsNotAFolderIsRefused) {
  TempDir dir;
  const std::string file = dir.write("file", "keep");
  const Outcome o = schedbench(dir, {"table", "--sim", "pic", "--out", file + "/t.txt"});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1u) << o.err;
  EXPECT_NE(o.err.find("--out: '" + file + "/t.txt': '" + file + "' is not a directory"),
            std::string::npos)
      << o.err;
}

// A run that fails before its first picture leaves no folder behind.
TEST(Outputs, ARunThatFailsBeforeItDrawsMakesNoFolder) {
  TempDir dir;
  const std::string frames = dir.path("new/frames");
  // The only frame is at the end, which a run that runs out of capacity never reaches.
  const Outcome o = schedbench(
      dir, {"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n", "100", "--steps",
            "2000", "--capacity", "150", "--frames", frames, "--frame-every", "2000"});
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_FALSE(fs::exists(dir.path("new")));
}

TEST(Outputs, ARunThatCannotStartMakesNoFolder) {
  if (cuda_device_present()) GTEST_SKIP() << "a GPU scheduler would start here";
  TempDir dir;
  const Outcome o = schedbench(dir, {"run", "--sim", "toy", "--scheduler", "naive", "--init-n",
                                     "10", "--steps", "10", "--frames", dir.path("new/frames")});
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_NE(o.err.find("needs a CUDA device"), std::string::npos) << o.err;
  EXPECT_FALSE(fs::exists(dir.path("new")));
}

// --- A write that fails: the file and the reason, exit 3, nothing under the final name. ---

// `args` run with files limited to a few kilobytes (RLIMIT_FSIZE), SIGXFSZ at its default action
// (which kills the process): schedbench must turn a write beyond into a failed write (EFBIG), as
// with ENOSPC on a full disk.
Outcome schedbench_with_small_files(const TempDir& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/bin/sh", "-c", "trap - XFSZ; ulimit -f 16; exec \"$@\"", "sh",
                                   SCHEDBENCH_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing_support::run_program(argv, dir.path(""));
}

TEST(Outputs, AFailedWriteNamesTheFileAndTheReasonAndLeavesNoPart) {
  TempDir dir;
  const std::string table = dir.path("t.txt"), old = dir.write("old.txt", "old");
  for (const std::string& out : {table, old}) {
    const Outcome o = schedbench_with_small_files(dir, {"table", "--sim", "pic", "--out", out});
    EXPECT_EQ(o.exit_code, 3) << o.err;
    EXPECT_EQ(lines(o.err), 1u) << o.err;
    EXPECT_NE(o.err.find("cannot write " + out + ": " + std::strerror(EFBIG)), std::string::npos)
        << o.err;
    EXPECT_EQ(o.err.find("internal error"), std::string::npos) << o.err;
  }
  EXPECT_FALSE(fs::exists(table));
  EXPECT_EQ(slurp(old), "old");
  EXPECT_EQ(entries(dir.path("")), (std::vector<std::string>{"old.txt"}));  // no temporary file
}

// The target is checked again when the file is committed: it may have changed since the check.
// A run writing --json holds the file's lock, as a sweep does: a second writer of the same file is
// refused while the first runs, and the first's result is what the file holds.
TEST(Outputs, TwoRunsWritingOneJsonAtOnceAreRefusedButOne) {
  TempDir dir;
  const std::string out = dir.path("r.json");
  const pid_t first = testing_support::start_program(
      {SCHEDBENCH_EXE, "run", "--sim", "mvp", "--scheduler", "cpu-serial", "--init-n", "3e5",
       "--steps", "600", "--split-chance", "0.1", "--json", out},
      dir.path("o1"), dir.path("e1"));
  ASSERT_GT(first, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline && !fs::exists(out + ".lock"))
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(fs::exists(out + ".lock"));
  const Outcome second = schedbench(dir, {"run", "--sim", "mvp", "--scheduler", "cpu-serial",
                                          "--init-n", "10", "--steps", "10", "--json", out});
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_NE(second.err.find(out + ": another schedbench (pid " + std::to_string(first) +
                            ") is writing it"),
            std::string::npos)
      << second.err;
  EXPECT_EQ(testing_support::wait_exit_code(first), 0) << slurp(dir.path("e1"));
  EXPECT_EQ(nlohmann::json::parse(slurp(out))["config"]["init_n"], 300000);
  EXPECT_FALSE(fs::exists(out + ".lock"));
}

// A lock, scratch or output file the OS will not create is a failed write: exit 3 naming it.
TEST(Outputs, ALockFileThatCannotBeMadeIsAFailedWrite) {
  TempDir dir;
  const std::string job = dir.write("job.json", R"({"name": "j", "sims": ["mvp"],
    "schedulers": ["cpu-serial"], "axes": {"init_n": 10, "steps": 10}})");
  const Outcome o = schedbench(dir, {"sweep", job, "--out", "/proc/x.json"});
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_EQ(o.err, "schedbench: cannot create the lock file /proc/x.json.lock: " +
                       std::string(std::strerror(ENOENT)) + "\n");
}

TEST(Outputs, TheCommitNeverReplacesWhatIsNotARegularFile) {
  TempDir dir;
  const std::string fifo = dir.path("fifo"), link = dir.path("link"), device = dir.path("full");
  const std::string target = dir.write("target", "keep");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  std::vector<std::string> paths = {fifo, link};
  if (mknod(device.c_str(), S_IFCHR | 0600, makedev(1, 7)) == 0) paths.push_back(device);
  for (const std::string& path : paths) {
    const mode_t type = lstat_type(path);
    try {
      write_file_atomically(path, "new");
      ADD_FAILURE() << path << " was replaced";
    } catch (const WriteError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot write " + path + ": "), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(lstat_type(path), type) << path;
  }
  EXPECT_EQ(slurp(target), "keep");
  EXPECT_EQ(entries(dir.path("")).size(), 1 + paths.size()) << "a temporary file was left";
}

// --- Overwriting: run and sweep agree. ---

TEST(Outputs, RunAndSweepRefuseAnExistingFileUnlessOverwrite) {
  TempDir dir;
  const std::string json = dir.write("r.json", "old"), results = dir.write("s.json", "old");
  const std::vector<std::string> run = {"run",        "--sim",    "mvp", "--scheduler",
                                        "cpu-serial", "--init-n", "10",  "--steps",
                                        "5",          "--json",   json};
  const std::vector<std::string> sweep = {"sweep", cpu_job(dir), "--out", results};
  for (const auto& args : {run, sweep}) {
    const Outcome refused = schedbench(dir, args);
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_EQ(lines(refused.err), 1u) << refused.err;
    EXPECT_NE(refused.err.find("exists; accepted: "), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--overwrite"), std::string::npos) << refused.err;
    std::vector<std::string> again = args;
    again.push_back("--overwrite");
    const Outcome replaced = schedbench(dir, again);
    EXPECT_EQ(replaced.exit_code, 0) << replaced.err;
  }
  EXPECT_NE(slurp(json), "old");
  EXPECT_NE(slurp(results), "old");
}

TEST(Outputs, ARunRefusesToReplaceItsOldPicturesUnlessOverwrite) {
  TempDir dir;
  const std::vector<std::string> args = {
      "run", "--sim",   "toy", "--scheduler", "cpu-serial",      "--init-n",
      "10",  "--steps", "10",  "--frames",    dir.path("frames")};
  ASSERT_EQ(schedbench(dir, args).exit_code, 0);
  const Outcome again = schedbench(dir, args);
  EXPECT_EQ(again.exit_code, 2) << again.err;
  EXPECT_NE(again.err.find("--frames: '" + dir.path("frames") + "/frame_000.png' exists"),
            std::string::npos)
      << again.err;
}

// --- What a user meets on the way. ---

TEST(Usability, VersionNamesTheBuild) {
  TempDir dir;
  const Outcome o = schedbench(dir, {"--version"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out.rfind("schedbench ", 0), 0u) << o.out;
  EXPECT_EQ(lines(o.out), 1u) << o.out;
}

TEST(Usability, HelpListsTheCommandsAndExplainsOne) {
  TempDir dir;
  const Outcome all = schedbench(dir, {"help"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  for (const char* command : {"run", "recommend", "sweep", "merge", "submit", "table", "list"})
    EXPECT_NE(all.out.find(command), std::string::npos) << command;
  const Outcome run = schedbench(dir, {"help", "run"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("--split-chance"), std::string::npos) << run.out;
  const Outcome unknown = schedbench(dir, {"help", "fly"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("help: 'fly' is not a command; accepted: list, run"),
            std::string::npos)
      << unknown.err;
}

TEST(Usability, AnUnknownCommandIsNamed) {
  TempDir dir;
  const Outcome o = schedbench(dir, {"rnu", "--sim", "mvp"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(lines(o.err), 1u) << o.err;
  EXPECT_NE(o.err.find("'rnu' is not a command; accepted: list, run"), std::string::npos) << o.err;
  const Outcome none = schedbench(dir, {});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("name a command; accepted: list, run"), std::string::npos) << none.err;
}

TEST(Usability, RunSaysWhatItRunsBeforeRunning) {
  TempDir dir;
  const Outcome o = schedbench(dir, {"run", "--sim", "mvp", "--scheduler", "cpu-serial", "--init-n",
                                     "10", "--steps", "5", "--split-chance", "3"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string first = o.out.substr(0, o.out.find('\n'));
  EXPECT_EQ(first.rfind("running mvp with cpu-serial: ", 0), 0u) << o.out;
  for (const char* value : {"init_n 10", "steps 5", "split_chance 3"})
    EXPECT_NE(first.find(value), std::string::npos) << first;
}

// No "null" in any output: a value not given is left out of the banner, the run's and the
// sweep's JSON and the export, shown as "-" in a sweep's table, and "default" in labels.
TEST(Usability, NoNullInAnyOutput) {
  TempDir dir;
  const Outcome run = schedbench(
      dir, {"run", "--sim", "air", "--scheduler", "cpu-serial", "--init-n", "10", "--phases", "1",
            "--phase-time", "1e-12", "--reduced-field", "100", "--json", dir.path("run.json")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.find("null"), std::string::npos) << run.out;
  EXPECT_EQ(slurp(dir.path("run.json")).find("null"), std::string::npos);
  const std::string job = dir.write("job.json", R"({"sims": ["pic"], "schedulers": ["cpu-serial"],
    "repetitions": 1, "warmup": 0, "axes": [{"init_n": 20, "poisson_steps": 1, "mobility_steps": 2},
    {"init_n": 20, "poisson_steps": 1, "mobility_steps": 2, "field": "poisson", "grid": 16}]})");
  const Outcome sweep = schedbench(dir, {"sweep", job, "--out", dir.path("r.json")});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  const std::string table = sweep.out.substr(sweep.out.find("sim  scheduler"));
  EXPECT_EQ(table.find("null"), std::string::npos) << table;
  EXPECT_NE(table.find("pic  cpu-serial  -        -"), std::string::npos) << table;
  const std::string results = slurp(dir.path("r.json"));
  EXPECT_EQ(results.find("null"), std::string::npos) << results;
  EXPECT_NE(results.find("pic__cpu-serial__field-default__grid-default"), std::string::npos);
  const Outcome csv = schedbench(dir, {"export", dir.path("r.json")});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.find("null"), std::string::npos) << csv.out;
}

// A folder given with a trailing separator gets one separator before the file names it holds.
TEST(Usability, NoDoubleSlashInPathsPrinted) {
  TempDir dir;
  const Outcome o = schedbench(
      dir, {"run", "--sim", "pic", "--scheduler", "cpu-serial", "--init-n", "20", "--poisson-steps",
            "1", "--mobility-steps", "2", "--density-png", dir.path("d") + "/"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("density_phase_0.png"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("//"), std::string::npos) << o.out;
  EXPECT_TRUE(std::filesystem::exists(dir.path("d/density_phase_0.png")));
}

// schedbench report: a report of the user's own job from a folder of results, into the folder
// named; a folder without results is one line, exit 2, and nothing written.
TEST(Usability, ReportOfAFolderOfOwnResults) {
  TempDir dir;
  const std::string job = dir.write("own.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial",
    "cpu-openmp"], "repetitions": 3, "warmup": 0, "axes": {"init_n": [20, 40], "steps": 5}})");
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", dir.path("results/own.json")}).exit_code, 0);
  const Outcome o =
      schedbench(dir, {"report", dir.path("results"), "--out", dir.path("my report")});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const std::string md = slurp(dir.path("my report/REPORT.md"));
  EXPECT_NE(md.find("own"), std::string::npos) << md;
  EXPECT_TRUE(std::filesystem::exists(dir.path("my report/REPORT.html")));
  std::filesystem::create_directories(dir.path("empty"));
  const Outcome empty = schedbench(dir, {"report", dir.path("empty"), "--out", dir.path("r2")});
  EXPECT_EQ(empty.exit_code, 2) << empty.out << empty.err;
  EXPECT_EQ(std::count(empty.err.begin(), empty.err.end(), '\n'), 1) << empty.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path("r2")));
}

// export: a row per point with the configuration's parameters and the record's numbers as
// columns, in CSV, markdown or JSON; a file that is not results is one line, exit 2.
TEST(Usability, ExportWritesAFlatTableOfTheResults) {
  TempDir dir;
  const std::string job = dir.write("job.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial"],
    "repetitions": 2, "warmup": 0, "axes": {"init_n": 20, "steps": 5, "seed": [1, 2]}})");
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", dir.path("r.json")}).exit_code, 0);
  const Outcome csv = schedbench(dir, {"export", dir.path("r.json")});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const std::string head = csv.out.substr(0, csv.out.find('\n'));
  for (const char* column : {"label,", ",seed,", ",stats.median_ms,", ",counts.final,",
                             ",counters.particle_steps_per_s,", ",status,", ",digest"})
    EXPECT_NE(head.find(column), std::string::npos) << column << " in " << head;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 3) << csv.out;
  const nlohmann::json doc = nlohmann::json::parse(slurp(dir.path("r.json")));
  const Outcome json = schedbench(dir, {"export", dir.path("r.json"), "--format", "json"});
  const nlohmann::json rows = nlohmann::json::parse(json.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1]["seed"], 2);
  EXPECT_EQ(rows[1]["stats.median_ms"], doc["points"][1]["stats"]["median_ms"]);
  EXPECT_EQ(rows[1]["digest"], doc["points"][1]["digest"]);
  const Outcome bad = schedbench(dir, {"export", job});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

// export keeps each value's type: whole numbers as integers, switches as true/false, decimals in
// their shortest exact text (0.05, not 0.050000000000000003), `noisy` on every row; --long writes
// a row per repetition with the point's label, configuration, repetition and time.
TEST(Usability, ExportKeepsTypesAndWritesARowPerRepetition) {
  TempDir dir;
  const std::string job = dir.write("job.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial"],
    "repetitions": 2, "warmup": 0, "axes": {"init_n": 20, "steps": 5, "split_chance": 0.05,
    "skip_spawned": false, "seed": [1, 2]}})");
  ASSERT_EQ(schedbench(dir, {"sweep", job, "--out", dir.path("r.json")}).exit_code, 0);
  const nlohmann::json doc = nlohmann::json::parse(slurp(dir.path("r.json")));
  const Outcome json = schedbench(dir, {"export", dir.path("r.json"), "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.find("0.050000000000000003"), std::string::npos) << json.out;
  const nlohmann::json rows = nlohmann::json::parse(json.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0]["split_chance"].is_number_float()) << rows[0];
  EXPECT_EQ(rows[0]["split_chance"], 0.05);
  EXPECT_EQ(rows[0]["skip_spawned"], false);
  EXPECT_TRUE(rows[0]["counts.final"].is_number_integer()) << rows[0];
  EXPECT_EQ(rows[0]["counts.final"], doc["points"][0]["counts"]["final"]);
  EXPECT_EQ(rows[0]["noisy"], doc["points"][0].value("noisy", false));
  const Outcome csv = schedbench(dir, {"export", dir.path("r.json")});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find(",0.05,"), std::string::npos) << csv.out;
  EXPECT_EQ(csv.out.find("0.050000000000000003"), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find(",noisy"), std::string::npos) << csv.out;
  EXPECT_EQ(csv.out.find(",,"), std::string::npos) << csv.out;  // every column filled

  const Outcome long_csv = schedbench(dir, {"export", dir.path("r.json"), "--long"});
  ASSERT_EQ(long_csv.exit_code, 0) << long_csv.err;
  EXPECT_EQ(std::count(long_csv.out.begin(), long_csv.out.end(), '\n'), 5) << long_csv.out;
  EXPECT_NE(long_csv.out.find(",repetition,time_ms\n"), std::string::npos) << long_csv.out;
  const Outcome long_json =
      schedbench(dir, {"export", dir.path("r.json"), "--long", "--format", "json"});
  ASSERT_EQ(long_json.exit_code, 0) << long_json.err;
  const nlohmann::json reps = nlohmann::json::parse(long_json.out);
  ASSERT_EQ(reps.size(), 4u);
  EXPECT_EQ(reps[3]["label"], doc["points"][1]["label"]);
  EXPECT_EQ(reps[3]["seed"], 2);
  EXPECT_EQ(reps[3]["repetition"], 1);
  EXPECT_EQ(reps[3]["time_ms"], doc["points"][1]["repetitions_ms"][1]);
  const Outcome md = schedbench(dir, {"export", dir.path("r.json"), "--long", "--format", "md"});
  EXPECT_EQ(std::count(md.out.begin(), md.out.end(), '\n'), 6) << md.out;
}

// The estimate of a job (estimated_s) is for one H100: points that all run on the CPU get none.
TEST(Usability, AJobOfCpuPointsListsNoGpuEstimate) {
  TempDir dir;
  const std::string job = dir.write("job.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial"],
    "estimated_s": 100, "axes": {"init_n": 20, "steps": 5}})");
  const Outcome o = schedbench(dir, {"sweep", job, "--list"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out.find("estimated"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("no estimate on the CPU"), std::string::npos) << o.out;
}

// The ETA after a point: the others' wall time by what that point took. Its record (100 runs of
// 20 ms after a warm-up, 3 s of wall time, so 0.98 s besides its runs) gives back its own 3 s, and
// a point of runs 10 times as long the same 2 s of timed runs; one of runs 100 times as long takes
// its least 6 (12 s), a most time of 1 s stops the timed runs there, and a fixed count of 3 takes
// 3 runs.
TEST(Progress, ThePointsLeftAreTimedByTheFirstPointsRecord) {
  const nlohmann::ordered_json rec = {{"wall_s", 3.0},
                                      {"warmup", 1},
                                      {"repetitions_ms", std::vector<double>(100, 20)},
                                      {"stats", {{"median_ms", 20}}}};
  const PointTimeModel m = point_time_model(rec, 1e6);
  EXPECT_NEAR(m.fixed_s, 0.98, 1e-9);
  EXPECT_NEAR(m.timed_s, 2, 1e-9);
  Sampling s;  // at least 6 runs, at most 10 s, a warm-up
  s.warmup = 1;
  EXPECT_NEAR(expected_s(m, s, 1e6), 3.0, 1e-9);
  EXPECT_NEAR(expected_s(m, s, 1e7), 0.98 + 0.2 + 2, 1e-9);
  EXPECT_NEAR(expected_s(m, s, 1e8), 0.98 + 2 + 12, 1e-9);
  s.max_time_s = 1;
  EXPECT_NEAR(expected_s(m, s, 1e6), 0.98 + 0.02 + 1, 1e-9);
  s.repetitions = 3;
  EXPECT_NEAR(expected_s(m, s, 1e8), 0.98 + 2 + 6, 1e-9);
}

// What a Progress wrote to its file.
std::string written(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f))
    text += static_cast<char>(c);
  return text;
}

TEST(Usability, ALogGetsAHeartbeatWhilePointsRun) {
  std::FILE* log = std::tmpfile();
  Progress progress(3, 0, 1, 0, false, log);
  progress.started("p1");
  const auto now = Progress::Clock::now();
  progress.tick(now + std::chrono::seconds(10));
  EXPECT_EQ(written(log), "");
  progress.tick(now + std::chrono::seconds(31));
  EXPECT_NE(written(log).find("still running: p1 (31s); 0 of 3 points done (ETA ?)"),
            std::string::npos)
      << written(log);
  progress.tick(now + std::chrono::seconds(40));  // 9 s after the last line
  EXPECT_EQ(lines(written(log)), 1u) << written(log);
  progress.finished("p1", "ok  1.000 ms");
  EXPECT_NE(written(log).find("[1/3] p1  ok  1.000 ms  (ETA "), std::string::npos);
  progress.tick(now + std::chrono::seconds(100));  // nothing runs: nothing to report
  EXPECT_EQ(lines(written(log)), 2u) << written(log);
  std::fclose(log);
}

// On a terminal the bar shows the running point's elapsed time, redrawn while it runs, and never
// runs past the width (80 columns where the width is unknown).
TEST(Usability, TheBarShowsTheRunningPointsTimeWithinTheWidth) {
  std::FILE* bar = std::tmpfile();
  Progress progress(2, 0, 1, 0, true, bar);
  const std::string label(120, 'x');
  progress.started(label);
  const auto now = Progress::Clock::now();
  progress.tick(now + std::chrono::seconds(7));
  const std::string shown = written(bar);
  const std::string last = shown.substr(shown.rfind("\033[K") + 3);
  EXPECT_LE(last.size(), 79u) << last;
  progress.clear();
  progress.started("short");
  progress.tick(now + std::chrono::seconds(65));
  const std::string later = written(bar);
  EXPECT_NE(later.rfind("short (1m05s)"), std::string::npos) << later;
  std::fclose(bar);
}

// The ETA weighs points by their cost: after a point of cost 1 took 0.1 s, 110 left take ~11 s
// (counted by points it would say 0.2 s); before any point finished, the estimate scaled to the
// cost left.
TEST(Usability, TheEtaWeighsPointsByTheirCost) {
  std::FILE* log = std::tmpfile();
  Progress progress(3, 0, 1, 0, false, log, 111);
  progress.started("small", 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  progress.finished("small", "ok  1.000 ms");
  const std::string line = written(log);
  const size_t at = line.find("(ETA ");
  ASSERT_NE(at, std::string::npos) << line;
  EXPECT_GE(std::stod(line.substr(at + 5)), 10) << line;  // "11s", "13s": seconds
  std::fclose(log);
}

// The bar names what the running point is doing beside its elapsed time.
TEST(Usability, TheBarShowsTheRunningRepetition) {
  std::FILE* bar = std::tmpfile();
  Progress progress(1, 0, 1, 0, true, bar);
  progress.started("p");
  progress.doing("p", "repetition 4");
  progress.tick(Progress::Clock::now() + std::chrono::seconds(3));
  EXPECT_NE(written(bar).rfind("p (3s, repetition 4)"), std::string::npos) << written(bar);
  std::fclose(bar);
}

// A run's progress: a line at most every so many seconds, with the phases left timed at the rate
// of those run (100 of 400 in 30 s: 90 s left).
TEST(Usability, ALongRunSaysHowFarItIsAndWhatIsLeft) {
  std::FILE* log = std::tmpfile();
  const auto start = RunProgress::Clock::now();
  RunProgress progress(400, 30, start, log);
  progress.at(100, 5000, start + std::chrono::seconds(10));
  EXPECT_EQ(written(log), "");
  progress.at(100, 5000, start + std::chrono::seconds(30));
  EXPECT_EQ(written(log),
            "progress: phase 100 of 400 (25.0 %), 5000 particles, 30s so far, about 1m30s left\n");
  progress.at(150, 5200, start + std::chrono::seconds(50));  // 20 s after the last line
  EXPECT_EQ(lines(written(log)), 1u) << written(log);
  progress.at(400, 12, start + std::chrono::seconds(65));
  EXPECT_NE(written(log).find("progress: phase 400 of 400 (100.0 %), 12 particles, 1m05s so far, "
                              "about 0s left\n"),
            std::string::npos)
      << written(log);
  std::fclose(log);
}

// Runs `args` on a pseudo-terminal, as a user at a terminal would; returns what it showed.
std::string schedbench_on_a_terminal(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {SCHEDBENCH_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> pointers;
  for (std::string& a : argv)
    pointers.push_back(a.data());
  pointers.push_back(nullptr);
  int terminal = -1;
  const pid_t pid = forkpty(&terminal, nullptr, nullptr, nullptr);
  if (pid == 0) {
    execv(pointers[0], pointers.data());
    _exit(127);
  }
  std::string shown;
  char buffer[4096];
  for (ssize_t n; (n = read(terminal, buffer, sizeof buffer)) > 0;)
    shown.append(buffer, static_cast<size_t>(n));
  close(terminal);
  waitpid(pid, nullptr, 0);
  return shown;
}

// The job's estimate is for an H100; a sweep of CPU points shows an ETA from its own points only.
TEST(Usability, ACpuSweepShowsNoH100Estimate) {
  TempDir dir;
  const std::string job = dir.write("job.json", R"({"name": "eta", "estimated_s": 36000,
    "sims": ["mvp"], "schedulers": ["cpu-serial"], "repetitions": 1, "warmup": 0,
    "axes": {"init_n": 50, "steps": 10, "seed": [1, 2, 3]}})");
  const std::string shown = schedbench_on_a_terminal({"sweep", job, "--out", dir.path("r.json")});
  EXPECT_NE(shown.find("[3/3]"), std::string::npos) << shown;
  EXPECT_NE(shown.find("ETA ?"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("ETA ~"), std::string::npos) << shown;
}

}  // namespace
}  // namespace sb
