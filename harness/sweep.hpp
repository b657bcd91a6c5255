// Runs the points of a job one after another, writing each point's result as it finishes.
#pragma once

#include <string>

#include "harness/job.hpp"

namespace sb {

// Writes OUT_DIR/<point label>.json per point (a failed point records its error) and prints a
// line per point and a summary table. Returns the number of failed points.
int run_sweep(const Job& job, const std::string& out_dir);

}  // namespace sb
