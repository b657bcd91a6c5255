// Runs the points of a job, each in its own process (schedbench-point), one per GPU slot at a
// time (a point of several ranks takes one slot per rank, behind an MPI launcher), and keeps the
// job's results file (job_results.hpp) up to date after every point.
#pragma once

#include <string>
#include <vector>

#include "harness/job/job.hpp"

namespace sb {

struct SweepOptions {
  std::string out_path;       // the results file; a shard writes shard_path() of it
  bool resume = false;        // keep the file's finished points and run the others
  bool retry_failed = false;  // with resume: run its failed points again
  bool overwrite = false;     // start afresh even though the file exists
  int shard_index = 1;        // this process runs points k with k % count == index - 1
  int shard_count = 1;
  std::vector<std::string> gpus;        // CUDA devices, one point on each at a time; empty: default
  double point_timeout_s = 0;           // kill a point after this; 0: from its runs' watchdog
  std::vector<std::string> runner;      // the command that runs one point: REQUEST RESULT appended
  std::vector<std::string> launcher;    // before the runner, for a point of several ranks
  std::string summary_format = "text";  // the summary's: text, md, csv or json (TextTable::as)
  // Each point measured in this many visits (its own process each, with its share of the
  // sampling), the visits of all points in a random order from `order_seed`; 0: one visit per
  // point, in job order.
  int interleave = 0;
  uint32_t order_seed = 1;
};

// Returns the number of failed points, or -1 if the sweep was interrupted (finished points are
// kept). Throws UsageError before running anything if the options do not fit the job.
int run_sweep(const Job& job, const SweepOptions& options);

}  // namespace sb
