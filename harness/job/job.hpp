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

// Reads and expands `path` (a job with a "program" key is another program's: refused). `have_gpu`
// selects `schedulers` or, where the job names them and no device is present,
// `fallback_schedulers`. The points are counted before any is built, and a job of more than
// `max_points` (or an axis of more values) is refused. Throws UsageError naming the file and the
// key.
Job load_job(const std::string& path, bool have_gpu, uint64_t max_points = kDefaultMaxPoints);

}  // namespace sb
