// A job file is data: which sims and schedulers, and named axes of values. load_job expands it
// into run points and checks every point (and every axis value) before anything runs.
// jobs/README.md documents the format.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/run_config.hpp"
#include "harness/job/job_form.hpp"

namespace sb {

struct JobPoint {
  RunConfig config;
  std::vector<std::string> given;  // parameter keys the job set for this point
  std::string label;               // unique within the job, usable as a file name
};

struct Job : JobHeader {
  std::vector<JobPoint> points;      // in job order, each configuration once
  std::vector<std::string> skipped;  // why schedulers were left out (e.g. no CUDA device)
};

// The most points a job may have unless --max-points raises it.
inline constexpr uint64_t kDefaultMaxPoints = 100000;

// Labels each point by sim, scheduler and the parameters that vary across `points`, so that a
// label is unique among them, equal labels mean equal configurations, and it is a file name.
void label_points(std::vector<JobPoint>& points);

// Changes to a job given on the command line (`sweep -a KEY=VALUES --filter REGEX`).
struct JobEdits {
  // An axis set in every sub-sweep, replacing the job's or added to it: (key, value as a job
  // file writes an axis). The keys "sim" and "scheduler" set the job's sims and schedulers.
  std::vector<std::pair<std::string, nlohmann::ordered_json>> axes;
  // ECMAScript regular expressions a point's label must each contain a match of (its label
  // names its sim, its scheduler and the values that vary), each of at most kMaxFilterChars
  // characters, without counted repetitions ({n}) or back-references.
  std::vector<std::string> filters;
};

// The longest `--filter` (a label's sim, scheduler and values need far fewer).
inline constexpr size_t kMaxFilterChars = 256;

// "KEY=VALUES" as an axis edit: VALUES a JSON value (`[32,64]`, `{"log": [1e3, 1e6], "points":
// 4}`, `5`) or words separated by commas (`32,64`, `dynamic-warp,naive`), each a JSON number
// or true/false where it reads as one and text otherwise. UsageError naming `option`.
std::pair<std::string, nlohmann::ordered_json> parse_axis_edit(const std::string& option,
                                                               const std::string& text);

// Reads and expands `path` (a job with a "program" key is another program's: refused), with
// `edits` applied: the axes before it is expanded, the filters after its points are labelled
// (labels are those of the whole job, so a filtered sweep resumes the same file). `have_gpu`
// selects `schedulers` or, where the job names them and no device is present,
// `fallback_schedulers`. The points are counted before any is built, and a job of more than
// `max_points` (or an axis of more values) is refused. Throws UsageError naming the file and the
// key.
Job load_job(const std::string& path, bool have_gpu, uint64_t max_points = kDefaultMaxPoints,
             const JobEdits& edits = {});

// A job of the command line's edits alone (`sweep` without a job file): the sims and schedulers
// of `-a sim=...` and `-a scheduler=...` (both needed: UsageError otherwise), the axes of the other
// `-a` edits, named "sweep-" and its sims; otherwise as load_job.
Job command_line_job(bool have_gpu, uint64_t max_points = kDefaultMaxPoints,
                     const JobEdits& edits = {});

}  // namespace sb
