// Running schedbench (or any program) from a test as a user would: its exit code and what it
// printed, optionally with more environment, or started in the background to be signalled.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/child_process.hpp"

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

}  // namespace sb::testing_support
