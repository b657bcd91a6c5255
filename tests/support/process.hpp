// Running schedbench (or any program) from a test as a user would: its exit code and what it
// printed, optionally with more environment, or started in the background to be signalled.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "harness/sweep/child_process.hpp"

namespace sb::testing_support {

struct Outcome {
  int exit_code;  // -1 when ended by a signal
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Starts `argv` with stdout and stderr to the files `out` and `err`, and `set_env` ("NAME=value")
// added to the environment (replacing NAME).
inline pid_t start_program(const std::vector<std::string>& argv, const std::string& out,
                           const std::string& err, const std::vector<std::string>& set_env = {}) {
  std::vector<std::string> args = argv, env = environment_with(set_env);
  std::vector<char*> arg_ptrs = pointers(args), env_ptrs = pointers(env);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  if (posix_spawnp(&pid, args[0].c_str(), &fa, nullptr, arg_ptrs.data(), env_ptrs.data()) != 0)
    pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

inline int wait_exit_code(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs `argv` to its end; `scratch` is a directory for its output.
inline Outcome run_program(const std::vector<std::string>& argv, const std::string& scratch,
                           const std::vector<std::string>& set_env = {}) {
  const std::string out = scratch + "/stdout", err = scratch + "/stderr";
  const pid_t pid = start_program(argv, out, err, set_env);
  const int code = pid < 0 ? -1 : wait_exit_code(pid);
  return {code, slurp(out), slurp(err)};
}

// The processes whose parent is `parent` (from /proc), with their command names.
struct ProcessInfo {
  pid_t pid;
  std::string name;
};
inline std::vector<ProcessInfo> children_of(pid_t parent) {
  std::vector<ProcessInfo> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string stat = slurp(e.path().string() + "/stat");
    // pid (comm) state ppid ...: comm may hold spaces, so parse from the last ')'.
    const size_t open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent) {
      out.push_back({static_cast<pid_t>(std::stol(stat.substr(0, open))),
                     stat.substr(open + 1, close - open - 1)});
    }
  }
  return out;
}

// The CPU seconds `pid` has used (user and system, from /proc), or 0 where it is gone.
inline double cpu_seconds(pid_t pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream rest(stat.substr(close + 2));
  std::string field;
  double ticks = 0;
  // Fields 3 to 13 (state .. cmajflt), then utime and stime.
  for (int k = 3; k <= 15 && rest >> field; ++k) {
    if (k >= 14) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Whether `pid` has ended (a zombie waiting for its new parent counts as ended).
inline bool has_ended(pid_t pid) {
  if (kill(pid, 0) != 0) return true;
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const size_t close = stat.rfind(')');
  return close == std::string::npos || stat.compare(close + 1, 2, " Z") == 0;
}

// Polls `done` until it holds or `seconds` have passed; returns whether it held.
inline bool eventually(const std::function<bool()>& done, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace sb::testing_support
