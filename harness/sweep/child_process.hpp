// A child process the sweep watches: started in its own process group (so that a kill reaches
// whatever it started, and a Ctrl-C at the terminal reaches only the sweep, which decides),
// polled without blocking, killed on a deadline. It is also killed by the kernel when the
// process that started it ends, however that ends (SIGKILL included), so that no point outlives
// its sweep.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace sb {

struct ExitStatus {
  bool signalled = false;  // ended by a signal: `code` is the signal number
  int code = 0;            // else the exit code

  std::string describe() const;  // "exit code 3", "killed by signal SIGSEGV (11)"
};

// This process's environment with `set_env` ("NAME=value") added, replacing NAME.
std::vector<std::string> environment_with(const std::vector<std::string>& set_env);

// The strings' data as the null-terminated array exec and posix_spawn take (valid while the
// strings are).
std::vector<char*> pointers(std::vector<std::string>& strings);

class ChildProcess {
 public:
  // Starts `argv` with the environment plus `set_env` ("NAME=value", replacing NAME), standard
  // output and error to `log_path`. Throws std::runtime_error if it cannot start. Start it from
  // the thread that keeps it: the kernel kills it when the starting thread ends.
  // With `with_input`, its standard input is a socket that send() writes lines to.
  ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& set_env,
               const std::string& log_path, bool with_input = false);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  // kills it if it still runs

  // Its status once it has ended; nothing while it runs.
  std::optional<ExitStatus> poll();
  // Asks its process group to stop (SIGTERM), kills it (SIGKILL) where it has not ended within a
  // few seconds, and waits for it.
  void kill();
  // Writes `line` and a line break to its standard input; false where it no longer reads.
  bool send(const std::string& line);

 private:
  pid_t pid_ = -1;
  bool ended_ = false;
  int input_ = -1;  // the parent's end of the child's standard input, or -1
};

}  // namespace sb
