#include "harness/sweep/fields_sweep.hpp"

#include <unistd.h>

#include <chrono>

#include "core/errors.hpp"
#include "harness/io/environment.hpp"
#include "harness/job/job_results.hpp"
#include "harness/sweep/point_process.hpp"
#include "harness/sweep/progress.hpp"

namespace sb {

using Json = nlohmann::ordered_json;

Json fields_point_record(const FieldsPoint& p, size_t index, const TimedRepetitions& t, int warmup,
                         const Json& counters, double wall_s) {
  const bool on_host = p.config.kernel == FieldKernel::kSolveFftw;
  Json rec = {{"label", p.label},
              {"index", index},
              {"config", fields_config_json(p.config)},
              {"status", t.error.empty() ? "ok" : "failed"}};
  if (!on_host) rec["gpu"] = "default";
  rec["finished_utc"] = utc_now();
  rec["wall_s"] = wall_s;
  if (!t.error.empty()) {
    rec["failure"] = "run-error";
    rec["error"] = t.error;
    return rec;
  }
  rec["warmup"] = warmup;
  rec["repetitions_ms"] = t.times_ms;
  rec["stats"] = t.stats();
  rec["counters"] = counters.is_null() ? Json::object() : counters;
  return rec;
}

size_t run_fields_job(const FieldsJob& job, const std::string& out, const Json& environment,
                      const MeasureFieldsPoint& measure, std::FILE* log) {
  JobResults results(job, 1, 1, environment);
  results.plan(job.points.size());
  Progress progress(job.points.size(), 0, 1, job.estimated_s, isatty(fileno(log)) != 0, log);
  size_t failed = 0;
  for (size_t i = 0; i < job.points.size(); ++i) {
    const FieldsPoint& p = job.points[i];
    progress.started(p.label);
    const auto start = std::chrono::steady_clock::now();
    TimedRepetitions t;
    Json counters;
    try {
      t = measure(p, job.sampling.warmup, counters);
    } catch (const RunError& e) {
      t.error = e.what();
    }
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    Json rec = fields_point_record(p, i, t, job.sampling.warmup, counters, wall.count());
    failed += rec["status"] == "failed" ? 1 : 0;
    progress.finished(p.label, point_outcome(rec));
    results.put(std::move(rec));
    results.write(out);
  }
  return failed;
}

}  // namespace sb
