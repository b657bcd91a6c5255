// What the sweep and Slurm tests share: a small CPU job, schedbench run as a user would run it,
// and the fake point runner (tests/support/fake_runner.sh).
#pragma once

#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/process.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb::testing_support {

// A job of mvp points on cpu-serial, one per seed.
inline std::string seed_job(const TempDir& dir, const std::string& seeds, int repetitions = 2) {
  return dir.write("job.json", R"({"name": "seeds", "sims": ["mvp"], "schedulers": ["cpu-serial"],
    "repetitions": )" + std::to_string(repetitions) +
                                   R"(, "warmup": 1,
    "axes": {"init_n": 200, "steps": 50, "split_chance": 2, "seed": )" +
                                   seeds + "}}");
}

// `schedbench ARGS` run in `dir`, with `env` ("NAME=value") added to the environment.
inline Outcome schedbench(const TempDir& dir, std::vector<std::string> args,
                          const std::vector<std::string>& env = {}) {
  args.insert(args.begin(), SCHEDBENCH_EXE);
  return run_program(args, dir.path(""), env);
}

// The --runner of a sweep whose seed 13 crashes and seed 14 hangs (fake_runner.sh).
inline std::string with_fake_runner() {
  return std::string(SCHEDBENCH_SOURCE_DIR) + "/tests/support/fake_runner.sh " +
         SCHEDBENCH_POINT_EXE;
}

// A command line printed for a user (recommend's run command) cut into its words; the words
// must hold no quoted spaces.
inline std::vector<std::string> command_words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    out.push_back(w);
  return out;
}

// The first line of `text` that contains `piece` (a row of a printed table), or "".
inline std::string line_containing(const std::string& text, const std::string& piece) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(piece) != std::string::npos) return line;
  }
  return "";
}

inline nlohmann::json read_json(const std::string& path) {
  return nlohmann::json::parse(slurp(path));
}

inline const nlohmann::json& point(const nlohmann::json& results, int seed) {
  for (const nlohmann::json& p : results["points"]) {
    if (p["config"]["seed"] == seed) return p;
  }
  throw std::runtime_error("no point with seed " + std::to_string(seed));
}

}  // namespace sb::testing_support
