// bench_fields' runner: the points of a fields job (harness/job/fields_job.hpp) measured in
// turn in one process, into a results file of the sweep's schema (results/README.md,
// schedbench.job/1) written by the sweep's writer (JobResults) with the statistics of the point
// runner (time_repetitions). How a point is measured is handed in, so that the runner and its
// records are tested without a device.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>

#include "harness/bench/repetitions.hpp"
#include "harness/job/fields_job.hpp"

namespace sb {

// Measures one point: `warmup` untimed runs, then its repetitions through time_repetitions;
// sets `counters` (recorded with the point). Throws RunError where the point cannot run.
using MeasureFieldsPoint = std::function<TimedRepetitions(const FieldsPoint& p, int warmup,
                                                          nlohmann::ordered_json& counters)>;

// The record of point `index`: ok, with the times and statistics of `t`, the warm-up count and
// `counters`; or failed ("run-error") where `t` carries an error.
nlohmann::ordered_json fields_point_record(const FieldsPoint& p, size_t index,
                                           const TimedRepetitions& t, int warmup,
                                           const nlohmann::ordered_json& counters, double wall_s);

// Measures every point of `job` in order, rewriting the results file `out` whole and atomically
// after each (so it always holds every point that finished), with a line per point and the ETA
// on `log`. Returns how many points failed.
size_t run_fields_job(const FieldsJob& job, const std::string& out,
                      const nlohmann::ordered_json& environment, const MeasureFieldsPoint& measure,
                      std::FILE* log);

}  // namespace sb
