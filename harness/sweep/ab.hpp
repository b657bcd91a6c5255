// `schedbench ab`: two builds of schedbench measured on the same points, point by point, each
// point's rounds alternating which build runs first (ABBA...), so that drift between runs (clocks,
// heat, a neighbour on the machine) lands on both builds alike; each point's verdict reads the
// ratios of its rounds (docs/guide.md, "Comparing two builds").
#pragma once

#include <string>
#include <vector>

#include "harness/bench/compare.hpp"
#include "harness/job/job.hpp"

namespace sb {

// The schedbench-point of the build at `path`, given as `option`: a schedbench-point, a schedbench
// (the schedbench-point beside it), a folder holding one (a build's bin folder), or an install
// prefix (PREFIX/bin/schedbench-point). UsageError naming `option` and `path` otherwise.
std::string build_point(const std::string& option, const std::string& path);

// The fewest rounds: their ratios' median then has a distribution-free interval of at least 95 %
// (median_interval, statistics.hpp).
inline constexpr int kMinRounds = 6;

struct AbOptions {
  std::string a, b;                   // the builds as given (--a, --b)
  std::string a_point, b_point;       // their schedbench-point
  int rounds = 10;                    // of each point, each build once in each
  std::string out_path;               // the ab file; empty: results/<device>/ab-<job name>.json
  bool overwrite = false;             // replace it if it exists
  std::vector<std::string> launcher;  // before a point runner, for a point of several ranks
  double point_timeout_s = 0;         // kill a run after this; 0: from its runs' watchdog
  CompareOptions compare;             // the verdicts' band
  bool markdown = false;              // the table as markdown
};

// Measures every point of `job` with both builds, each round of a point a process of each build
// with its share of the job's sampling (visit_share), writes the comparison (schedbench.ab/1)
// atomically after every point and prints its table. Returns the exit code: 0, 3 where a run
// failed (the points before it are in the file), 130 where a stop signal came.
int run_ab(const Job& job, const AbOptions& o);

}  // namespace sb
