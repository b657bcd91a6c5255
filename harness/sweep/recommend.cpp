#include "harness/sweep/recommend.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <thread>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/environment.hpp"
#include "harness/io/output_path.hpp"
#include "harness/io/text_table.hpp"
#include "harness/job/job_results.hpp"
#include "harness/job/parameters.hpp"
#include "harness/sweep/halving.hpp"
#include "harness/sweep/point_process.hpp"
#include "harness/sweep/sweep_guard.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr const char* kYardstick = "bound";
constexpr int kWarmup = 1;             // untimed runs before each measurement's repetitions
constexpr int kScreenRepetitions = 1;  // the screening's timed runs per candidate
constexpr int kFirstRepetitions = 3;   // halving's first round's; each later round doubles them
// The most repetitions one measurement takes (a job's limit too).
constexpr size_t kMostRepetitions = 1000;
// The fewest repetitions of the yardstick worth a median.
constexpr size_t kLeastYardstickRepetitions = 3;
// The share of the budget left after settling that the yardstick's runs may take.
constexpr double kYardstickShare = 0.8;
// The share of what the screening leaves that the halving does not spend where a GPU leader may
// win: the yardstick's, beyond the room for one more measurement that settling keeps. A
// measurement stopped at its deadline ends the point process, and the yardstick's then starts
// another; on a loaded host that start alone outlasted the room of a fast workload.
constexpr double kYardstickReserve = 0.1;
constexpr double kLeastWatchdogS = 0.1;  // the watchdog's smallest timeout (--timeout)

bool runs_sim(const SchedulerEntry& e, const std::string& sim) {
  return e.by_sim.count(sim) > 0;
}

// The schedulers the user named, checked, or the default set for this machine.
std::vector<std::string> candidate_schedulers(const RecommendRequest& r) {
  const SchedulerKind wanted = r.have_gpu ? SchedulerKind::kGpu : SchedulerKind::kCpu;
  if (r.schedulers.empty()) {
    std::vector<std::string> out;
    for (const SchedulerEntry& e : all_schedulers()) {
      if (e.kind == wanted && runs_sim(e, r.workload.sim)) out.push_back(e.name);
    }
    return out;
  }
  for (const std::string& name : r.schedulers) {
    if (std::none_of(all_schedulers().begin(), all_schedulers().end(),
                     [&](const SchedulerEntry& e) { return e.name == name; })) {
      std::vector<std::string> names;
      for (const SchedulerEntry& e : all_schedulers()) {
        if (e.kind != SchedulerKind::kYardstick) names.push_back(e.name);
      }
      throw UsageError(fmt::format("--schedulers: '{}' is not a scheduler; accepted: {}",
                                   printable(name), fmt::join(names, ", ")));
    }
    const SchedulerEntry& e = find_scheduler(name);
    if (e.kind == SchedulerKind::kYardstick) {
      throw UsageError(fmt::format(
          "--schedulers: {} is a yardstick, never a candidate (recommend measures it beside the "
          "winner where there is a GPU)",
          name));
    }
    if (e.kind == SchedulerKind::kGpu && !r.have_gpu) {
      throw UsageError(fmt::format(
          "--schedulers: {} needs a CUDA device and none is present; accepted here: the CPU "
          "schedulers (schedbench list)",
          name));
    }
    if (!runs_sim(e, r.workload.sim)) {
      throw UsageError(fmt::format("--schedulers: {} does not run sim {}", name, r.workload.sim));
    }
    if (std::count(r.schedulers.begin(), r.schedulers.end(), name) > 1) {
      throw UsageError(fmt::format("--schedulers: {} is named twice", name));
    }
  }
  return r.schedulers;
}

// Each value of each axis, checked by its parameter whether or not a candidate reads it.
void check_axes(const RecommendRequest& r) {
  for (const Axis& axis : r.axes) {
    const Parameter* p = find_parameter(axis.key);
    RunConfig scratch = r.workload;
    for (const std::string& v : axis.values) {
      p->set(scratch, axis.option, v);
      if (std::count(axis.values.begin(), axis.values.end(), v) > 1)
        throw UsageError(fmt::format("{}: {} is named twice", axis.option, v));
    }
    if (axis.values.empty())
      throw UsageError(fmt::format("{}: empty; accepted: a list", axis.option));
  }
}

// `base` with every combination of the values of the axes that apply to its scheduler.
std::vector<JobPoint> combinations(const JobPoint& base, const std::vector<Axis>& axes) {
  std::vector<JobPoint> out = {base};
  for (const Axis& axis : axes) {
    const Parameter& p = *find_parameter(axis.key);
    if (!applies(p, base.config)) continue;
    std::vector<JobPoint> next;
    for (const JobPoint& q : out) {
      for (const std::string& v : axis.values) {
        JobPoint c = q;
        p.set(c.config, axis.option, v);
        c.given.push_back(axis.key);
        next.push_back(std::move(c));
      }
    }
    out = std::move(next);
  }
  return out;
}

// Each point once per named policy of its scheduler where `all` (the named ones, not `default`,
// which is one of them on the device it resolves for), else as it is. A policy axis is per
// scheduler, unlike the axes above: each scheduler has its own policies.
std::vector<JobPoint> with_policies(std::vector<JobPoint> points, bool all) {
  if (!all) return points;
  std::vector<JobPoint> out;
  for (const JobPoint& base : points) {
    const SchedulerPolicies& policies = find_scheduler(base.config.scheduler).policies;
    if (policies.empty()) out.push_back(base);
    for (const PolicyInfo& policy : policies.named) {
      JobPoint c = base;
      policies.parameter.set(c.config, policy.name);
      c.given.push_back(policies.parameter.key);
      out.push_back(std::move(c));
    }
  }
  return out;
}

// A word of a shell command line, quoted where the shell would split or expand it.
std::string shell_word(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) ||
           std::string("-_.,:/=+@%").find(ch) != std::string::npos;
  });
  if (plain) return text;
  std::string out = "'";
  for (const char ch : text)
    out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// The job whose points are the candidates: what the results file records.
Job recommend_job(const RecommendRequest& r, std::vector<JobPoint> points) {
  Job job;
  job.name = "recommend-" + r.workload.sim;
  job.path = "schedbench recommend";
  job.description =
      "schedbench recommend: the fastest candidate for one workload, by successive "
      "halving within a time budget";
  Json axes = Json::object();
  for (const Axis& a : r.axes)
    axes[a.key] = a.values;
  Json workload = Json::object();
  const Json config = config_json(points.front().config);
  for (const auto& [key, value] : config.items()) {
    if (key == "sim" || std::count(r.given.begin(), r.given.end(), key) > 0) workload[key] = value;
  }
  std::vector<std::string> schedulers;
  for (const JobPoint& p : points) {
    if (std::count(schedulers.begin(), schedulers.end(), p.config.scheduler) == 0)
      schedulers.push_back(p.config.scheduler);
  }
  job.spec = {{"workload", workload}, {"schedulers", schedulers},
              {"axes", axes},         {"budget_s", r.budget_s},
              {"warmup", kWarmup},    {"first_repetitions", kFirstRepetitions}};
  job.sampling.repetitions = kFirstRepetitions;
  job.sampling.warmup = kWarmup;
  job.points = std::move(points);
  return job;
}

// Measures the job's points one at a time in one point process (schedbench-point --serve: one
// start and one CUDA context for every candidate), keeping each one's latest record; a crash or
// a kill at a deadline ends that process, and the next measurement starts another.
class ServedMeasurer {
 public:
  ServedMeasurer(Job& job, const RecommendRequest& r, const ScratchDir& scratch)
      : job_(job), r_(r), scratch_(scratch) {}

  // `repetitions` timed runs after the warm-up, each run stopped once it passes `stop_after_ms`
  // (0: its own watchdog), within `deadline_s`.
  Measurement operator()(size_t index, int repetitions, double stop_after_ms, double deadline_s) {
    const JobPoint& p = job_.points[index];
    job_.sampling.repetitions = repetitions;
    const double own = default_point_timeout(job_, p);
    RunningPoint running;
    running.index = index;
    running.request = scratch_.file(p.label + ".request.json");
    running.result = scratch_.file(p.label + ".result.json");
    running.timeout_s = std::min(deadline_s, own);
    RunConfig config = p.config;
    // The watchdog stops a run past the limit; at least its smallest timeout.
    if (stop_after_ms > 0) {
      const DeclaredParameter& watchdog = launch_knobs::timeout();
      watchdog.set(config, std::min(watchdog.real(config),
                                    std::max(kLeastWatchdogS, stop_after_ms * 1e-3)));
    }
    std::filesystem::remove(running.result);
    write_point_request(running.request, p.label, config, job_.sampling);
    if (!server_) start_server();
    running.log = log_;
    running.started = Clock::now();
    server_->send(Json{{"request", running.request}, {"result", running.result}}.dump());
    std::optional<ExitStatus> status;
    while (!std::filesystem::exists(running.result) && !(status = server_->poll()) &&
           !late(running) && !StopSignals::requested())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const bool answered = std::filesystem::exists(running.result);
    if (!answered && !status) {
      server_.reset();  // killed: the next measurement starts another
      if (StopSignals::requested() || deadline_s < own) {
        fmt::print(stderr, "  {}: stopped, {}\n", p.label,
                   StopSignals::requested() ? "interrupted" : "the budget is spent");
        return {Measurement::Status::kOutOfTime, {}, ""};
      }
    }
    if (status) server_.reset();  // it ended (a crash): the next measurement starts another
    Json rec = point_record(job_, running, answered ? ExitStatus{} : status);
    const bool stopped = stop_after_ms > 0 && rec["status"] != "ok" &&
                         rec.value("error", "").rfind("watchdog:", 0) == 0;
    if (stopped) {
      const std::string why =
          fmt::format("stopped: a run went past {:.0f} ms, the screening's limit",
                      std::max(kLeastWatchdogS * 1e3, stop_after_ms));
      fmt::print(stderr, "  {}: {}\n", p.label, why);
      records_[index] = rec;
      return {Measurement::Status::kStopped, {}, why};
    }
    fmt::print(stderr, "  {}: {}\n", rec["label"].get<std::string>(), point_outcome(rec));
    records_[index] = rec;
    if (rec["status"] != "ok") return {Measurement::Status::kFailed, {}, rec["error"]};
    return {Measurement::Status::kOk, rec["repetitions_ms"].get<std::vector<double>>(), ""};
  }

  const std::map<size_t, Json>& records() const { return records_; }
  int processes() const { return processes_; }

 private:
  void start_server() {
    std::vector<std::string> argv = r_.runner;
    argv.push_back("--serve");
    log_ = scratch_.file(fmt::format("server-{}.log", ++processes_));
    server_ = std::make_unique<ChildProcess>(argv, std::vector<std::string>{}, log_, true);
  }

  Job& job_;
  const RecommendRequest& r_;
  const ScratchDir& scratch_;
  std::unique_ptr<ChildProcess> server_;
  std::string log_;
  int processes_ = 0;
  std::map<size_t, Json> records_;
};

// The yardstick on the winner's configuration, if the budget has room for it: as many
// repetitions as the winner's record holds (at most kMostRepetitions), or as many as the winner's
// wall time per repetition lets the rest of the budget hold. Its record, or nothing.
std::optional<Json> measure_yardstick(Job& job, const HalvingResult& h, ServedMeasurer& measure,
                                      double remaining_s) {
  JobPoint bound = job.points[h.ranking.front().index];
  bound.config.scheduler = kYardstick;
  if (!runs_sim(find_scheduler(kYardstick), bound.config.sim)) return std::nullopt;
  const Json& winner = measure.records().at(h.ranking.front().index);
  const size_t measured = winner["repetitions_ms"].size();
  const double wall_per_repetition =
      winner["wall_s"].get<double>() / static_cast<double>(std::max<size_t>(measured, 1));
  // Before its repetitions the yardstick runs the winner's configuration once for its reference,
  // and its warm-up; a fifth of the rest is left for what a measurement costs beyond its runs, so
  // that the measurement ends before the budget does rather than being stopped at it.
  const double for_repetitions =
      kYardstickShare * remaining_s -
      wall_per_repetition * (1.0 + static_cast<double>(job.sampling.warmup));
  const size_t fit = static_cast<size_t>(std::max(0.0, for_repetitions / wall_per_repetition));
  const size_t repetitions = std::min({measured, kMostRepetitions, fit});
  if (repetitions < kLeastYardstickRepetitions) {
    fmt::print(stderr, "{} not measured: the budget is spent\n", kYardstick);
    return std::nullopt;
  }
  std::vector<JobPoint> alone = {bound};
  label_points(alone);
  job.points.push_back(alone.front());
  const size_t index = job.points.size() - 1;
  const Measurement m = measure(index, static_cast<int>(repetitions), 0, remaining_s);
  if (m.status == Measurement::Status::kOutOfTime) return std::nullopt;
  return measure.records().at(index);
}

std::string ms(double v) {
  return fmt::format("{:.3f}", v);
}

// The ranking as a table: the measured candidates best first, then the dropped and unmeasured.
std::string ranking_table(const Job& job, const RecommendRequest& r, const HalvingResult& h,
                          const ScreenResult& screened, const JobResults& results) {
  // An axis no candidate reads (block sizes among CPU engines) gets no column.
  std::vector<const Axis*> axes;
  for (const Axis& a : r.axes) {
    if (std::any_of(job.points.begin(), job.points.end(),
                    [&](const JobPoint& p) { return applies(*find_parameter(a.key), p.config); }))
      axes.push_back(&a);
  }
  std::vector<std::string> header = {"rank", "scheduler"};
  for (const Axis* a : axes)
    header.push_back(a->key);
  for (const char* c :
       {"round", "reps", "median ms", "IQR ms", "min-max ms", "vs best", "efficiency"})
    header.emplace_back(c);
  TextTable table(header);
  const auto start_row = [&](const std::string& rank, const JobPoint& p) {
    const Json config = config_json(p.config);
    std::vector<std::string> row = {rank, p.config.scheduler};
    for (const Axis* axis : axes) {
      const Axis& a = *axis;
      row.push_back(config.contains(a.key)
                        ? (config[a.key].is_string() ? config[a.key].get<std::string>()
                                                     : config[a.key].dump())
                        : "-");
    }
    return row;
  };
  const double best = h.ranking.empty() ? 0 : h.ranking.front().spread.median;
  for (size_t k = 0; k < h.ranking.size(); ++k) {
    const CandidateOutcome& c = h.ranking[k];
    const JobPoint& p = job.points[c.index];
    std::vector<std::string> row = start_row(std::to_string(k + 1), p);
    const Spread& s = c.spread;
    const Json* rec = results.find(p.label);
    const bool efficiency = rec != nullptr && (*rec)["counters"].contains("efficiency");
    row.insert(
        row.end(),
        {std::to_string(c.round), std::to_string(c.times_ms.size()), ms(s.median),
         ms(s.q1) + "-" + ms(s.q3), ms(s.min) + "-" + ms(s.max),
         fmt::format("{:.2f}x", s.median / best),
         efficiency ? fmt::format("{:.2f}", (*rec)["counters"]["efficiency"].get<double>()) : ""});
    table.add_row(row);
  }
  for (const CandidateOutcome& c : screened.stopped) {
    std::vector<std::string> row = start_row("-", job.points[c.index]);
    row.insert(row.end(),
               {"0", "", "stopped", "", "", fmt::format(">{:.0f}x", screened.stop_factor), ""});
    table.add_row(row);
  }
  for (const CandidateOutcome& c : h.failed) {
    std::vector<std::string> row = start_row("-", job.points[c.index]);
    row.insert(row.end(), {"", "", "failed", "", "", "", ""});
    table.add_row(row);
  }
  for (const size_t k : h.unmeasured) {
    std::vector<std::string> row = start_row("-", job.points[k]);
    row.insert(row.end(), {"", "", "not measured", "", "", "", ""});
    table.add_row(row);
  }
  return table.str();
}

const char* verdict_name(Verdict::Kind k) {
  switch (k) {
    case Verdict::Kind::kAlone:
      return "alone";
    case Verdict::Kind::kSeparated:
      return "separated";
    case Verdict::Kind::kLikely:
      return "likely";
    case Verdict::Kind::kWithinNoise:
      return "within-noise";
  }
  return "?";
}

// recommend's own section of the results file: the ranking, the verdict and the winner's command.
Json recommend_section(const Job& job, const RecommendRequest& r, const HalvingResult& h,
                       const ScreenResult& screened, int processes) {
  Json ranking = Json::array();
  for (const CandidateOutcome& c : h.ranking) {
    const Spread& s = c.spread;
    ranking.push_back({{"label", job.points[c.index].label},
                       {"round", c.round},
                       {"repetitions", c.times_ms.size()},
                       {"median_ms", s.median},
                       {"q1_ms", s.q1},
                       {"q3_ms", s.q3},
                       {"min_ms", s.min},
                       {"max_ms", s.max},
                       {"relative", s.median / h.ranking.front().spread.median}});
  }
  Json failed = Json::array();
  for (const CandidateOutcome& c : h.failed)
    failed.push_back({{"label", job.points[c.index].label}, {"error", c.error}});
  Json unmeasured = Json::array();
  for (const size_t k : h.unmeasured)
    unmeasured.push_back(job.points[k].label);
  Json stopped = Json::array();
  for (const CandidateOutcome& c : screened.stopped)
    stopped.push_back({{"label", job.points[c.index].label}, {"error", c.error}});
  Json leaders = Json::array();
  for (const size_t k : screened.leaders)
    leaders.push_back(job.points[k].label);
  Json out = {
      {"budget_s", r.budget_s},
      {"spent_s", h.spent_s},
      {"screened", screened.screened.size() + screened.stopped.size() + screened.failed.size()},
      {"screening_s", screened.spent_s},
      {"stop_factor", screened.stop_factor},
      {"stopped", stopped},
      {"leaders", leaders},
      {"processes", processes},
      {"rounds", h.rounds},
      {"budget_spent", h.budget_spent},
      {"ranking", ranking},
      {"failed", failed},
      {"unmeasured", unmeasured}};
  if (!h.ranking.empty()) {
    const JobPoint& winner = job.points[h.ranking.front().index];
    out["winner"] = winner.label;
    out["verdict"] = {{"kind", verdict_name(h.verdict.kind)},
                      {"p_fastest", h.verdict.p_fastest},
                      {"text", h.verdict.text}};
    out["run_command"] = run_command_line(r.program, winner);
  }
  return out;
}

}  // namespace

std::vector<JobPoint> recommend_candidates(const RecommendRequest& r) {
  // Each candidate runs in a point process that no launcher starts (schedbench-point --serve),
  // which is one rank: a candidate of more would fail every measurement.
  if (r.workload.ranks != 1) {
    throw UsageError(fmt::format(
        "--ranks: {}; recommend measures each candidate on one rank; accepted: 1 (a sweep of a "
        "job with a ranks axis measures several: jobs/README.md)",
        r.workload.ranks));
  }
  check_axes(r);
  std::vector<JobPoint> out;
  for (const std::string& name : candidate_schedulers(r)) {
    JobPoint base;
    base.config = r.workload;
    base.config.scheduler = name;
    base.given = r.given;
    for (JobPoint& c : with_policies(combinations(base, r.axes), r.all_policies)) {
      check_config(c.config, c.given);
      out.push_back(std::move(c));
    }
  }
  if (out.empty()) {
    throw UsageError(fmt::format("no scheduler of this machine runs sim {}; accepted: --schedulers",
                                 r.workload.sim));
  }
  label_points(out);
  return out;
}

std::string run_command_line(const std::string& program, const JobPoint& p) {
  std::vector<std::string> words = {
      shell_word(program),      "run",         "--sim",
      shell_word(p.config.sim), "--scheduler", shell_word(p.config.scheduler)};
  const Json config = config_json(p.config);
  for (const Parameter& param : parameters()) {
    if (std::count(p.given.begin(), p.given.end(), param.key) == 0 || !config.contains(param.key))
      continue;
    const Json& value = config[param.key];
    if (param.is_switch) {
      if (value.get<bool>()) words.push_back(param.flag);
      continue;
    }
    words.push_back(param.flag);
    words.push_back(shell_word(value.is_string() ? value.get<std::string>() : value.dump()));
  }
  return fmt::format("{}", fmt::join(words, " "));
}

int run_recommend(const RecommendRequest& r) {
  const Json environment = environment_json();
  Job job = recommend_job(r, recommend_candidates(r));
  const std::string path = r.out_path.empty() ? default_results_path(job, environment) : r.out_path;
  check_output_file("--out", path, !r.overwrite);
  const StopSignals stop_signals;  // before the lock and the scratch folder: sweep.cpp says why
  const ResultsLock lock(path);
  const ScratchDir scratch(path);
  fmt::print(stderr, "recommend: {} candidates for sim {}, budget {} s -> {}\n", job.points.size(),
             r.workload.sim, r.budget_s, path);

  const Clock::time_point start = Clock::now();
  const auto clock = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const auto note = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  ServedMeasurer measure(job, r, scratch);
  ScreenOptions screening;
  screening.budget_s = r.budget_s;
  const ScreenResult screened = screen(
      job.points.size(), screening,
      [&](size_t k, double stop_after_ms, double deadline_s) {
        return measure(k, kScreenRepetitions, stop_after_ms, deadline_s);
      },
      clock, note);
  // The leaders by successive halving in what the screening left of the budget; the others keep
  // their screening.
  const std::vector<size_t>& leaders = screened.leaders;
  const bool gpu_leader = std::any_of(leaders.begin(), leaders.end(),
                                      [&](size_t k) { return !runs_on_cpu(job.points[k].config); });
  HalvingOptions options;
  options.budget_s = (r.budget_s - clock()) * (gpu_leader ? 1 - kYardstickReserve : 1);
  options.first_repetitions = kFirstRepetitions;
  options.room_after_settling = true;  // for the yardstick
  const double halving_end = clock() + options.budget_s;
  HalvingResult h = successive_halving(
      leaders.size(), options,
      [&](size_t i, int repetitions, double deadline_s) {
        return measure(leaders[i], repetitions, 0, deadline_s);
      },
      clock, note);
  h = with_screening(std::move(h), screened);
  // The screened candidates that were not leaders, against the winner, in the halving's budget.
  follow_medians(
      h,
      [&](size_t k, int repetitions, double deadline_s) {
        return measure(k, repetitions, 0, deadline_s);
      },
      [&] { return halving_end - clock(); }, note);
  if (StopSignals::requested()) {
    fmt::print(stderr, "recommend: interrupted; nothing written\n");
    return 130;
  }

  // The yardstick runs on the GPU: it measures nothing a CPU winner could be compared with.
  std::optional<Json> bound;
  if (!h.ranking.empty() && !runs_on_cpu(job.points[h.ranking.front().index].config)) {
    bound = measure_yardstick(job, h, measure, r.budget_s - clock());
  }
  h.spent_s = clock();  // the budget's use includes the yardstick's measurement
  JobResults results(job, 1, 1, environment);
  for (const auto& [index, rec] : measure.records())
    results.put(rec);
  results.set_section("recommend", recommend_section(job, r, h, screened, measure.processes()));
  results.plan(measure.records().size());
  results.write(path);

  fmt::print("{}", ranking_table(job, r, h, screened, results));
  for (const CandidateOutcome& c : h.failed)
    fmt::print("failed: {}: {}\n", job.points[c.index].label, c.error);
  if (!h.unmeasured.empty()) {
    fmt::print(
        "not measured: {} candidate(s): the budget ran out first (a larger --budget "
        "measures them)\n",
        h.unmeasured.size());
  }
  if (h.ranking.empty()) {
    fmt::print("no candidate was measured; results in {}\n", path);
    return 3;
  }
  const JobPoint& winner = job.points[h.ranking.front().index];
  fmt::print("winner: {} ({})\n", winner.label, h.verdict.text);
  if (bound && (*bound)["status"] == "ok") {
    fmt::print("{} (the yardstick) at the winner's configuration: {:.3f} ms\n", kYardstick,
               (*bound)["stats"]["median_ms"].get<double>());
  }
  fmt::print(
      "screened {} candidate(s) ({} stopped at {}x the best run), {} leader(s) in {} round(s); "
      "{:.1f} s of a {} s budget in {} process(es); results in {}\n",
      screened.screened.size() + screened.stopped.size() + screened.failed.size(),
      screened.stopped.size(), screened.stop_factor, screened.leaders.size(), h.rounds, h.spent_s,
      r.budget_s, measure.processes(), path);
  fmt::print("run it: {}\n", run_command_line(r.program, winner));
  return 0;
}

}  // namespace sb
