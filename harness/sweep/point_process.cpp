#include "harness/sweep/point_process.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/values.hpp"
#include "harness/bench/repetitions.hpp"
#include "harness/bench/sampling.hpp"
#include "harness/bench/statistics.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/environment.hpp"
#include "harness/io/json_file.hpp"
#include "harness/job/job_results.hpp"
#include "harness/job/parameters.hpp"
#include "ranks/communicator.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/registry.hpp"
#include "schedulers/run_spec.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The last non-empty lines of a point's output: what a failure record quotes.
std::string tail(const std::string& text, size_t lines) {
  std::vector<std::string> kept;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    if (end > start) kept.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (kept.size() > lines) kept.erase(kept.begin(), kept.end() - static_cast<long>(lines));
  std::string out;
  for (const std::string& l : kept)
    out += (out.empty() ? "" : "\n") + l;
  return out;
}

// A command line's words: `command` cut at its spaces, a run of them one cut.
std::vector<std::string> words(const std::string& command) {
  std::vector<std::string> out;
  for (const std::string& word : split(command, ' ')) {
    if (!word.empty()) out.push_back(word);
  }
  return out;
}

}  // namespace

std::vector<std::string> point_runner(const std::string& command) {
  if (!command.empty()) {
    std::vector<std::string> argv = words(command);
    if (argv.empty() || access(argv.front().c_str(), X_OK) != 0) {
      throw UsageError(fmt::format("--runner: '{}' is not an executable file",
                                   argv.empty() ? command : argv.front()));
    }
    return argv;
  }
  // schedbench-point lies beside schedbench in the build.
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  const fs::path runner = exe.parent_path() / "schedbench-point";
  if (!fs::exists(runner)) {
    throw UsageError(
        fmt::format("{}: not found; it runs each point of a sweep (make build makes it), "
                    "or name another with --runner",
                    runner.string()));
  }
  return {runner.string()};
}

std::vector<std::string> point_launcher(const std::string& command) {
  const std::vector<std::string> argv = words(command);
  const bool counted = std::any_of(argv.begin(), argv.end(), [](const std::string& w) {
    return w.find("{ranks}") != std::string::npos;
  });
  if (argv.empty() || !counted) {
    throw UsageError(fmt::format(
        "--launcher: '{}' does not say where the rank count goes; accepted: a command with "
        "{{ranks}}, e.g. '{}' or 'srun -n {{ranks}}'",
        printable(command), kDefaultLauncher));
  }
  return argv;
}

void refuse_launched(const std::string& command) {
  const char* variable = ranks::launcher_variable();
  if (variable == nullptr) return;
  throw UsageError(fmt::format(
      "{}: started by an MPI launcher ({} is set), whose environment its point processes would "
      "take for theirs; accepted: schedbench {} without a launcher (a sweep's --launcher starts "
      "the ranks of a point)",
      command, variable, command));
}

void check_launcher(const Job& job, const std::vector<std::string>& launcher) {
  const auto several = std::find_if(job.points.begin(), job.points.end(),
                                    [](const JobPoint& p) { return p.config.ranks > 1; });
  if (several == job.points.end()) return;
  const std::string& program = launcher.front();
  bool found = program.find('/') != std::string::npos && access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  for (const std::string& dir : split(path == nullptr ? "" : path, ':')) {
    if (!found && !dir.empty()) found = access((dir + "/" + program).c_str(), X_OK) == 0;
  }
  if (!found) {
    throw UsageError(fmt::format(
        "--launcher: {} is not an executable on PATH, and point {} takes {} ranks; accepted: "
        "OpenMPI installed (scripts/install-deps.sh), or --launcher with the cluster's (e.g. "
        "'srun -n {{ranks}}')",
        printable(program), several->label, several->config.ranks));
  }
}

bool runs_on_cpu(const RunConfig& c) {
  return find_scheduler(c.scheduler).kind == SchedulerKind::kCpu;
}

double default_point_timeout(const Job& job, const JobPoint& p) {
  // Every run up to its watchdog: the warm-up, the least number of repetitions, and those that
  // fit in the most measured time the sampling allows.
  const Sampling& s = job.sampling;
  const int runs = s.warmup + (s.repetitions > 0 ? s.repetitions : s.min_samples);
  const double rule_s = s.repetitions > 0 ? 0 : s.max_time_s;
  return static_cast<double>(runs) * launch_knobs::timeout().real(p.config) + rule_s + 60;
}

void write_point_request(const std::string& path, const std::string& label, const RunConfig& config,
                         const Sampling& sampling) {
  write_file_atomically(
      path,
      Json{{"label", label}, {"config", config_json(config)}, {"sampling", sampling_json(sampling)}}
          .dump(2));
}

RunningPoint start_point(const Job& job, size_t index, const PointLaunch& how,
                         const ScratchDir& scratch) {
  const JobPoint& p = job.points[index];
  RunningPoint r;
  r.index = index;
  r.visit = how.visit;
  r.gpu = how.gpu;
  const std::string name =
      how.visits > 1 ? fmt::format("{}.visit-{}", p.label, how.visit + 1) : p.label;
  r.request = scratch.file(name + ".request.json");
  r.result = scratch.file(name + ".result.json");
  r.log = scratch.file(name + ".log");
  // A point run again (recommend's later rounds) must not find the result of its last run.
  fs::remove(r.result);
  write_point_request(r.request, p.label, p.config,
                      visit_share(job.sampling, how.visits, how.visit));
  std::vector<std::string> argv;
  if (p.config.ranks > 1) {
    for (std::string word : how.launcher) {
      for (size_t at = word.find("{ranks}"); at != std::string::npos; at = word.find("{ranks}"))
        word.replace(at, 7, std::to_string(p.config.ranks));
      argv.push_back(word);
    }
  }
  argv.insert(argv.end(), how.runner.begin(), how.runner.end());
  argv.push_back(r.request);
  argv.push_back(r.result);
  std::vector<std::string> env;
  if (!how.gpu.empty()) env.push_back("CUDA_VISIBLE_DEVICES=" + how.gpu);
  r.timeout_s = how.timeout_s;
  r.started = Clock::now();
  r.child = std::make_unique<ChildProcess>(argv, env, r.log);
  return r;
}

double h100_estimate(const Job& job, const std::vector<size_t>& points) {
  const bool gpu = std::any_of(points.begin(), points.end(),
                               [&](size_t k) { return !runs_on_cpu(job.points[k].config); });
  return gpu ? job.estimated_s * static_cast<double>(points.size()) /
                   static_cast<double>(job.points.size())
             : 0;
}

double run_work(const JobPoint& p) {
  const PhasePlan plan = resolve(p.config).plan();
  return static_cast<double>(p.config.init_n) * static_cast<double>(plan.count) *
         static_cast<double>(plan.steps);
}

double point_cost(const Job& job, const JobPoint& p) {
  const Sampling& s = job.sampling;
  const int runs = s.warmup + (s.repetitions > 0 ? s.repetitions : s.min_samples);
  return static_cast<double>(runs) * run_work(p);
}

PointTimeModel point_time_model(const nlohmann::ordered_json& rec, double work) {
  const std::vector<double> times = rec.at("repetitions_ms").get<std::vector<double>>();
  const double median_s = rec.at("stats").at("median_ms").get<double>() * 1e-3;
  const double timed_s = std::accumulate(times.begin(), times.end(), 0.0) * 1e-3;
  return {
      median_s / work,
      std::max(0.0, rec.at("wall_s").get<double>() - timed_s - rec.value("warmup", 0) * median_s),
      timed_s};
}

double expected_s(const PointTimeModel& m, const Sampling& s, double work) {
  const double run_s = m.run_s_per_work * work;
  double timed_s = s.repetitions * run_s;
  if (s.repetitions == 0) {
    // A run's spread relative to its time falls as the square root of its length, so runs k times
    // as long need k times fewer to narrow the median's interval as far: the timed runs of each
    // point take about as long as the measured point's did.
    const double least_s = std::max(s.min_samples * run_s, s.min_time_s);
    const double most_s = std::max(s.max_time_s, least_s);
    timed_s = std::clamp(m.timed_s, least_s, most_s);
  }
  return m.fixed_s + s.warmup * run_s + timed_s;
}

std::string point_doing(const RunningPoint& r) {
  // The point runner prints a line per run ("warm-up 1: ...", "repetition 4: ..."): the last.
  std::ifstream in(r.log, std::ios::ate);
  const std::streamoff size = in.tellg();
  if (size <= 0) return "";
  in.seekg(std::max<std::streamoff>(0, size - 4096));
  std::string last;
  for (std::string line; std::getline(in, line);) {
    const bool run = line.rfind("warm-up ", 0) == 0 || line.rfind("repetition ", 0) == 0;
    if (run && line.find(':') != std::string::npos) last = line.substr(0, line.find(':'));
  }
  return last;
}

bool late(const RunningPoint& r) {
  return std::chrono::duration<double>(Clock::now() - r.started).count() > r.timeout_s;
}

Json point_record(const Job& job, const RunningPoint& r, const std::optional<ExitStatus>& status) {
  const JobPoint& p = job.points[r.index];
  Json rec = {{"label", p.label},
              {"index", r.index},
              {"config", config_json(p.config)},
              {"status", "failed"}};
  if (!runs_on_cpu(p.config)) rec["gpu"] = r.gpu.empty() ? "default" : r.gpu;
  rec["finished_utc"] = utc_now();
  rec["wall_s"] = std::chrono::duration<double>(Clock::now() - r.started).count();
  const std::string log = tail(read_text(r.log), 5);
  Json result;  // null where the runner wrote none, or no JSON
  if (fs::exists(r.result)) {
    try {
      result = read_json_file(r.result, "point result");
    } catch (const UsageError&) {
      result = nullptr;
    }
  }
  Json out = rec;
  if (!status) {
    out["failure"] = "timeout";
    out["error"] = fmt::format("no result after {:.0f} s; the point was killed", r.timeout_s);
  } else if (status->signalled) {
    out["failure"] = "crash";
    out["error"] = status->describe();
  } else if (status->code == 0 && result.is_object() && result.contains("stats")) {
    out["status"] = "ok";
    for (auto& [key, value] : result.items()) {
      if (!rec.contains(key)) out[key] = value;  // the record's own fields are the sweep's
    }
  } else if (result.is_object() && result.contains("failure")) {
    out["failure"] = result["failure"];
    out["error"] = result.value("error", Json());
  } else {
    out["failure"] = status->code == 0 ? "no-result" : "run-error";
    out["error"] =
        fmt::format("{}{}", status->describe(), status->code == 0 ? " without a result" : "");
  }
  if (out["status"] != "ok") out["log_tail"] = log;
  // A runner (--runner) may write anything: what every reader of the results file reads must be
  // there, of its type, or the point failed.
  try {
    check_point_record(out, "its result");
  } catch (const UsageError& e) {
    rec["failure"] = "no-result";
    rec["error"] =
        fmt::format("{} wrote a result that is no point's: {}", printable(r.result), e.what());
    rec["log_tail"] = log;
    return rec;
  }
  return out;
}

// The visits' energy joined (results/README.md): their joules and seconds summed, over all
// their repetitions; null where a visit has none.
Json merged_energy(const std::vector<Json>& visits, size_t repetitions) {
  double joules = 0, seconds = 0;
  for (const Json& v : visits) {
    if (!v.contains("energy")) return nullptr;
    joules += v.at("energy").at("joules").get<double>();
    seconds += v.at("energy").at("seconds").get<double>();
  }
  return energy_record(joules, seconds, repetitions);
}

Json merge_visits(const Sampling& s, const std::vector<Json>& visits) {
  Json out = visits.front();
  if (visits.size() == 1) return out;
  TimedRepetitions all;
  Json sm_mhz = Json::array(), throttled = Json::array();
  std::set<std::string> reasons;
  std::map<std::string, std::vector<double>> parts;
  std::vector<double> reduce_ms;
  double wall_s = 0;
  for (const Json& v : visits) {
    if (v.at("digest") != out["digest"]) {
      return {
          {"label", out["label"]},
          {"index", out["index"]},
          {"config", out["config"]},
          {"status", "failed"},
          {"failure", "run-error"},
          {"error", fmt::format("a visit gave digest {} but the first gave {}",
                                v.at("digest").get<std::string>(),
                                out["digest"].get<std::string>())},
          {"finished_utc", v.at("finished_utc")}};
    }
    const size_t before = all.times_ms.size();
    for (const Json& t : v.at("repetitions_ms"))
      all.times_ms.push_back(t.get<double>());
    if (v.contains("gpu_clocks")) {
      for (const Json& mhz : v.at("gpu_clocks").at("sm_mhz"))
        sm_mhz.push_back(mhz);
      for (const Json& k : v.at("gpu_clocks").at("throttled"))
        throttled.push_back(before + k.get<size_t>());
      for (const Json& why : v.at("gpu_clocks").value("reasons", Json::array()))
        reasons.insert(why.get<std::string>());
    }
    const Json parts_ms = v.value("parts_ms", Json::object());
    for (const auto& [part, ms] : parts_ms.items())
      parts[part].push_back(ms.get<double>());
    reduce_ms.push_back(v.value("reduce_ms", 0.0));
    wall_s += v.value("wall_s", 0.0);
    // Clocks locked for the point only where every visit locked them.
    if (v.value("clocks_locked", true) == false) {
      out["clocks_locked"] = false;
      out["clock_lock_refused"] = v.at("clock_lock_refused");
    }
  }
  out["repetitions_ms"] = all.times_ms;
  out["stats"] = all.stats();
  const double median_s = out["stats"]["median_ms"].get<double>() * 1e-3;
  const auto steps = out["counts"]["particle_steps"].get<double>();
  out["counters"]["particle_steps_per_s"] = steps / median_s;
  out["counters"]["ns_per_particle_step"] = median_s * 1e9 / steps;
  for (auto& [part, ms] : parts)
    out["parts_ms"][part] = spread_of(ms).median;
  out["reduce_ms"] = spread_of(reduce_ms).median;
  if (out.contains("gpu_clocks")) {
    out["gpu_clocks"] = {{"sm_mhz", sm_mhz}, {"throttled", throttled}};
    if (!reasons.empty()) out["gpu_clocks"]["reasons"] = reasons;
  }
  out.erase("energy");
  if (Json energy = merged_energy(visits, all.times_ms.size()); !energy.is_null())
    out["energy"] = std::move(energy);
  out.erase("noisy");
  if (noisy(s, all.times_ms) || !throttled.empty()) out["noisy"] = true;
  out["visits"] = visits.size();
  out["wall_s"] = wall_s;
  out["finished_utc"] = visits.back().at("finished_utc");
  return out;
}

std::string point_outcome(const Json& rec) {
  if (rec["status"] == "ok") {
    return fmt::format("ok  {:.3f} ms (median of {})", rec["stats"]["median_ms"].get<double>(),
                       rec["repetitions_ms"].size());
  }
  return fmt::format("FAILED ({}): {}", rec["failure"].get<std::string>(),
                     rec["error"].get<std::string>());
}

}  // namespace sb
