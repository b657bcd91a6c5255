// `schedbench recommend`: which scheduler (and block size, and any other axis) runs a given
// workload fastest here. The candidates are measured by successive halving within a time budget
// (harness/sweep/halving.hpp), each measurement a point in its own process as in a sweep
// (harness/sweep/point_process.hpp); the ranking is printed and written as a results file.
#pragma once

#include <string>
#include <vector>

#include "core/run_config.hpp"
#include "harness/job/job.hpp"

namespace sb {

// A parameter to vary and the values to try, as a user writes them (checked by its Parameter).
struct Axis {
  std::string key;     // parameters.hpp, e.g. "block_size"
  std::string option;  // the option that named the values, for messages: "--block-sizes"
  std::vector<std::string> values;
};

struct RecommendRequest {
  RunConfig workload;              // the sim and its parameters; the scheduler is a candidate
  std::vector<std::string> given;  // parameter keys the user set
  std::vector<std::string>
      schedulers;             // empty: every GPU scheduler, or every CPU one without a GPU
  std::vector<Axis> axes;     // an axis applies to the schedulers that read its parameter
  bool all_policies = false;  // each scheduler that has tuning policies tries every one of them
  double budget_s = 60;
  std::string out_path;  // empty: results/<device>/recommend-<sim>.json
  bool overwrite = false;
  bool have_gpu = false;  // a CUDA device is present: the default candidates are GPU schedulers
  std::vector<std::string> runner;  // runs one point: REQUEST RESULT appended
  std::string program;              // this schedbench, for the printed run command
};

// Every candidate: each scheduler with each combination of the values of the axes that apply
// to it, labelled as job points are, and checked. Throws UsageError (ranks other than 1, an unknown
// or yardstick scheduler, a GPU scheduler without a GPU, a bad axis value).
std::vector<JobPoint> recommend_candidates(const RecommendRequest& r);

// The `schedbench run` command line of `p`: the user's parameters and the candidate's axes.
std::string run_command_line(const std::string& program, const JobPoint& p);

// Measures, prints the ranking and writes the results file. Returns the exit code: 0 with a
// winner, 3 if no candidate could be measured, 130 if interrupted (nothing written).
int run_recommend(const RecommendRequest& r);

}  // namespace sb
