#include "harness/sweep/sweep.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "core/errors.hpp"
#include "harness/bench/sampling.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/environment.hpp"
#include "harness/io/output_path.hpp"
#include "harness/io/text_table.hpp"
#include "harness/job/catalog.hpp"
#include "harness/job/job_results.hpp"
#include "harness/job/parameters.hpp"
#include "harness/sweep/point_process.hpp"
#include "harness/sweep/progress.hpp"
#include "harness/sweep/sweep_guard.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// Long enough for every run of the point to reach its own watchdog, unless told otherwise.
double point_timeout(const Job& job, const JobPoint& p, const SweepOptions& o) {
  return o.point_timeout_s > 0 ? o.point_timeout_s : default_point_timeout(job, p);
}

// The ratios a point's counters may hold, as the summary heads their columns: against `bound`
// and against the memory line (docs/performance.md, "The bound and the memory line").
const std::vector<std::pair<std::string, std::string>> kRatioColumns = {
    {"efficiency", "vs bound"}, {"memory_efficiency", "vs memory line"}};

// One row per point of this shard: the parameters that vary, the counts, slots used per live
// particle, the median, the half-width of its 95% interval, the samples and their cv, and the
// ratios against `bound` and the memory line where the job measured them; a noisy point's status
// says so.
TextTable summary(const Job& job, const JobResults& results, const std::vector<size_t>& mine) {
  std::map<std::string, std::set<std::string>> values;
  std::vector<std::pair<std::string, std::string>> ratios;
  for (size_t k : mine) {
    const nlohmann::json config = config_with_unset(job.points[k].config);
    for (const auto& [key, value] : config.items())
      values[key].insert(value.dump());
  }
  for (const auto& column : kRatioColumns) {
    const bool measured = std::any_of(mine.begin(), mine.end(), [&](size_t k) {
      const Json* rec = results.find(job.points[k].label);
      return rec != nullptr && rec->value("counters", Json::object()).contains(column.first);
    });
    if (measured) ratios.push_back(column);
  }
  std::vector<std::string> varying;
  for (const auto& [key, seen] : values) {
    if (seen.size() > 1 && key != "sim" && key != "scheduler") varying.push_back(key);
  }
  std::vector<std::string> header = {"sim", "scheduler"};
  header.insert(header.end(), varying.begin(), varying.end());
  std::vector<std::string> measured = {"final", "slots/live", "median ms",       "±% (95%)",
                                       "n",     "cv %",       "particle-steps/s"};
  for (const auto& column : ratios)
    measured.push_back(column.second);
  header.insert(header.end(), measured.begin(), measured.end());
  header.emplace_back("status");
  TextTable table(header);
  for (size_t k : mine) {
    const JobPoint& p = job.points[k];
    const Json cfg = config_with_unset(p.config);
    std::vector<std::string> row = {p.config.sim, p.config.scheduler};
    for (const std::string& key : varying)
      row.push_back(cfg.contains(key) ? shown_value(cfg[key]) : "");
    const Json* rec = results.find(p.label);
    if (rec == nullptr || (*rec)["status"] != "ok") {
      row.resize(row.size() + measured.size());
      row.push_back(rec == nullptr ? "not run" : "failed: " + (*rec)["failure"].get<std::string>());
    } else {
      const Json& counters = (*rec)["counters"];
      const Json& counts = (*rec)["counts"];
      row.push_back(std::to_string(counts["final"].get<uint64_t>()));
      // Results from before runs reported their slots used give the particles held instead.
      const Json& slots = counts.contains("slots_used") ? counts["slots_used"] : counts["peak"];
      row.push_back(
          counts.value("peak_live", uint64_t{0}) > 0
              ? fmt::format("{:.2f}", slots.get<double>() / counts["peak_live"].get<double>())
              : "");
      const Json& stats = (*rec)["stats"];
      row.push_back(fmt::format("{:.3f}", stats["median_ms"].get<double>()));
      // Records from before the median's interval was recorded have no noise.
      row.push_back(
          stats.contains("noise") ? fmt::format("{:.1f}", 100 * stats["noise"].get<double>()) : "");
      row.push_back(std::to_string((*rec)["repetitions_ms"].size()));
      row.push_back(fmt::format("{:.1f}", 100 * stats["cv"].get<double>()));
      row.push_back(fmt::format("{:.3g}", counters["particle_steps_per_s"].get<double>()));
      for (const auto& column : ratios) {
        row.push_back(counters.contains(column.first)
                          ? fmt::format("{:.2f}", counters[column.first].get<double>())
                          : "");
      }
      row.emplace_back(rec->value("noisy", false) ? "noisy" : "ok");
    }
    table.add_row(row);
  }
  return table;
}

// Whether a recorded point ran `c`: a parameter its configuration lacks, one declared after it
// was written, counts as that parameter's default.
bool recorded_as(const Json& rec, const RunConfig& c) {
  nlohmann::json recorded = recorded_config(rec["config"]);
  RunConfig defaults;  // but for the sim, the scheduler and --init-n, which has no default
  defaults.sim = c.sim;
  defaults.scheduler = c.scheduler;
  defaults.init_n = c.init_n;
  const nlohmann::json declared = config_json(defaults);
  for (auto it = declared.begin(); it != declared.end(); ++it) {
    if (!recorded.contains(it.key())) recorded[it.key()] = *it;
  }
  return recorded == config_json(c);
}

// One visit to a point: its index in the job and which of its visits, from 0.
struct Visit {
  size_t point;
  int visit;
};

// The visits of `todo`: one each in job order; with --interleave V, V each in a random order
// from the seed (the same seed, the same order).
std::vector<Visit> visit_order(const std::vector<size_t>& todo, const SweepOptions& o) {
  std::vector<Visit> out;
  for (int v = 0; v < std::max(1, o.interleave); ++v) {
    for (const size_t k : todo)
      out.push_back({k, v});
  }
  if (o.interleave > 0) {
    std::mt19937 rng(o.order_seed);
    std::shuffle(out.begin(), out.end(), rng);
    // Within a point its visits run in order, so that visit 1 always comes first.
    std::map<size_t, int> seen;
    for (Visit& v : out)
      v.visit = seen[v.point]++;
  }
  return out;
}

// How the progress names a visit: the point's label, with "visit 2/3" where there are several.
std::string visit_name(const Job& job, const Visit& v, int visits) {
  const std::string& label = job.points[v.point].label;
  return visits > 1 ? fmt::format("{} [visit {}/{}]", label, v.visit + 1, visits) : label;
}

// The ETA's costs as expected seconds (point_time_model) by `rec`, the first measured visit
// (`measured`): `cost` (a visit's, by point) afresh, then what the visits before `next` of
// `order` that are not `running` cost, and what the others do; the measured visit costs what it
// took.
void price_in_seconds(const Job& job, const Json& rec, const Visit& measured,
                      const std::vector<Visit>& order, size_t next,
                      const std::set<std::string>& running, int visits,
                      std::map<size_t, double>& cost, Progress& progress) {
  const PointTimeModel model = point_time_model(rec, run_work(job.points[measured.point]));
  const Sampling share = visit_share(job.sampling, visits, 0);
  for (auto& [k, c] : cost)
    c = expected_s(model, share, run_work(job.points[k]));
  const std::string measured_name = visit_name(job, measured, visits);
  double done = 0, left = 0;
  std::map<std::string, double> running_cost;
  for (size_t i = 0; i < order.size(); ++i) {
    const std::string name = visit_name(job, order[i], visits);
    const double c = name == measured_name ? rec["wall_s"].get<double>() : cost[order[i].point];
    const bool is_running = running.count(name) != 0;
    if (is_running) running_cost[name] = c;
    (i < next && !is_running ? done : left) += c;
  }
  progress.recost(done, left, running_cost);
}

}  // namespace

int run_sweep(const Job& job, const SweepOptions& o) {
  // GPU slots: one per device of --gpus, or one for the default devices. A point of several
  // ranks takes one slot per rank (every device where --gpus names none).
  const std::vector<std::string> slots = o.gpus.empty() ? std::vector<std::string>{""} : o.gpus;
  const auto slots_of = [&](const JobPoint& p) -> size_t {
    return o.gpus.empty() ? 1 : p.config.ranks;
  };
  for (size_t k = 0; k < job.points.size(); ++k) {
    if (slots_of(job.points[k]) > slots.size()) {
      throw UsageError(fmt::format(
          "--gpus: names {} device(s), but point {} takes {} ranks, one GPU each; accepted: "
          "--gpus with at least {} devices, or no --gpus (each point then has every GPU)",
          slots.size(), job.points[k].label, job.points[k].config.ranks,
          job.points[k].config.ranks));
    }
  }
  check_launcher(job, o.launcher);
  const Json environment = environment_json();
  std::string path = o.out_path.empty() ? default_results_path(job, environment) : o.out_path;
  if (o.shard_count > 1) path = shard_path(path, o.shard_index, o.shard_count);
  check_output_file("--out", path);
  // Installed before the lock, the results file and the scratch folder exist, and kept until
  // they are cleaned up: a stop signal at any moment ends the sweep through the handler.
  const StopSignals stop_signals;
  const ResultsLock lock(path);
  const bool exists = fs::exists(path);
  if (exists && !o.resume && !o.overwrite) {
    throw UsageError(
        fmt::format("{}: exists; accepted: --resume to run only its unfinished points, "
                    "--overwrite to start afresh",
                    path));
  }
  JobResults results = exists && o.resume
                           ? JobResults::read(path, job)
                           : JobResults(job, o.shard_index, o.shard_count, environment);

  // This shard's points, and those the file already holds.
  std::vector<size_t> mine, todo;
  for (size_t k = 0; k < job.points.size(); ++k) {
    if (static_cast<int>(k % static_cast<size_t>(o.shard_count)) != o.shard_index - 1) continue;
    mine.push_back(k);
    const Json* rec = results.find(job.points[k].label);
    const bool finished = rec != nullptr && recorded_as(*rec, job.points[k].config) &&
                          ((*rec)["status"] == "ok" || !o.retry_failed);
    if (!finished) todo.push_back(k);
  }
  for (const std::string& why : job.skipped)
    fmt::print("{}: {}\n", job.path, why);
  results.plan(mine.size());
  results.write(path);
  write_catalog_beside(path);  // the names and labels the plots read (plot/results.py)
  fmt::print(
      "{}: {} points{} -> {}\n", job.path, mine.size(),
      o.shard_count > 1 ? fmt::format(" (shard {} of {})", o.shard_index, o.shard_count) : "",
      path);

  const ScratchDir scratch(path);  // outlives the points, which write into it
  const int visits = std::max(1, o.interleave);
  const std::vector<Visit> order = visit_order(todo, o);
  std::vector<bool> taken(slots.size(), false);
  struct Running {
    RunningPoint point;
    std::vector<size_t> slots;
  };
  std::vector<Running> running;
  std::map<size_t, double> cost;  // of one visit
  double cost_to_run = 0;
  for (const size_t k : todo)
    cost_to_run += visits * (cost[k] = point_cost(job, job.points[k]) / visits);
  Progress progress(order.size() + (mine.size() - todo.size()) * visits,
                    (mine.size() - todo.size()) * visits, slots.size(), h100_estimate(job, todo),
                    isatty(STDOUT_FILENO) != 0, stdout, cost_to_run);
  std::map<size_t, std::vector<Json>> visited;  // the ok visits of a point not yet finished
  std::set<size_t> failed_points;               // a visit failed: its other visits are skipped
  auto last_look = Clock::now();
  size_t next = 0;
  int failed = 0;
  bool in_seconds = false;  // the costs priced by a measured point
  while (!StopSignals::requested() && (next < order.size() || !running.empty())) {
    // In order: a visit waits for its slots, and those after it wait with it.
    while (next < order.size()) {
      const Visit& visit = order[next];
      const size_t k = visit.point;
      if (failed_points.count(k) != 0) {
        progress.started(visit_name(job, visit, visits), cost[k]);
        progress.finished(visit_name(job, visit, visits), "skipped: another visit failed");
        ++next;
        continue;
      }
      std::vector<size_t> free;
      for (size_t s = 0; s < slots.size(); ++s) {
        if (!taken[s] && free.size() < slots_of(job.points[k])) free.push_back(s);
      }
      if (free.size() < slots_of(job.points[k])) break;
      PointLaunch how{"",          o.runner, o.launcher, point_timeout(job, job.points[k], o),
                      visit.visit, visits};
      for (const size_t s : free) {
        taken[s] = true;
        how.gpu += (how.gpu.empty() || slots[s].empty() ? "" : ",") + slots[s];
      }
      running.push_back({start_point(job, k, how, scratch), free});
      ++next;
      progress.started(visit_name(job, visit, visits), cost[k]);
    }
    for (auto it = running.begin(); it != running.end();) {
      std::optional<ExitStatus> status = it->point.child->poll();
      const bool killed = !status && late(it->point);
      if (!status && !killed) {
        ++it;
        continue;
      }
      if (killed) it->point.child->kill();
      const size_t k = it->point.index;
      const Visit visit{k, it->point.visit};
      const Json rec = point_record(job, it->point, status);
      if (!in_seconds && rec["status"] == "ok") {
        std::set<std::string> names;
        for (const Running& r : running)
          names.insert(visit_name(job, {r.point.index, r.point.visit}, visits));
        price_in_seconds(job, rec, visit, order, next, names, visits, cost, progress);
        in_seconds = true;
      }
      progress.finished(visit_name(job, visit, visits), point_outcome(rec));
      if (rec["status"] == "ok") visited[k].push_back(rec);
      if (rec["status"] != "ok" || visited[k].size() == static_cast<size_t>(visits)) {
        // The point is done: its last visit ended, or one failed.
        const Json done = rec["status"] == "ok" ? merge_visits(job.sampling, visited[k]) : rec;
        failed += done["status"] == "ok" ? 0 : 1;
        if (done["status"] != "ok") failed_points.insert(k);
        visited.erase(k);
        results.put(done);
        results.write(path);
      }
      for (const size_t s : it->slots)
        taken[s] = false;
      it = running.erase(it);
    }
    // Once a second: what each running point is doing, by its output.
    if (Clock::now() - last_look >= std::chrono::seconds(1)) {
      for (const Running& r : running)
        progress.doing(visit_name(job, {r.point.index, r.point.visit}, visits),
                       point_doing(r.point));
      last_look = Clock::now();
    }
    progress.tick(Clock::now());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  progress.clear();
  if (StopSignals::requested()) {
    for (Running& r : running)
      r.point.child->kill();
    fmt::print("\ninterrupted: the finished points are in {}; `--resume` runs the others\n", path);
    return -1;
  }
  fmt::print("\n{}", summary(job, results, mine).as(o.summary_format));
  fmt::print("{} points, {} failed this time; results in {}\n", mine.size(), failed, path);
  return failed;
}

}  // namespace sb
