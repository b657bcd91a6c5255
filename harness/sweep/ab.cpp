#include "harness/sweep/ab.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "harness/bench/statistics.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/environment.hpp"
#include "harness/io/output_path.hpp"
#include "harness/job/job_results.hpp"
#include "harness/sweep/point_process.hpp"
#include "harness/sweep/sweep_guard.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

bool executable_file(const fs::path& p) {
  std::error_code error;
  return fs::is_regular_file(p, error) && access(p.c_str(), X_OK) == 0;
}

// One run of a point by one build, to its end: its record (point_record), or none where a stop
// signal came first.
std::optional<Json> run_once(const Job& job, size_t k, const std::string& point, int round,
                             const AbOptions& o, const ScratchDir& scratch) {
  const double timeout_s =
      o.point_timeout_s > 0 ? o.point_timeout_s : default_point_timeout(job, job.points[k]);
  RunningPoint r =
      start_point(job, k, {"", {point}, o.launcher, timeout_s, round, o.rounds}, scratch);
  std::optional<ExitStatus> status;
  while (!(status = r.child->poll()) && !late(r)) {
    if (StopSignals::requested()) {
      r.child->kill();
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!status) r.child->kill();
  return point_record(job, r, status);
}

// The closing line's account of the test (comparison_text).
std::string ab_method(int rounds) {
  return fmt::format(
      "the median of the {} rounds' ratios of B's median to A's (the builds alternating which "
      "runs first), its interval the distribution-free one of a median (order statistics of the "
      "rounds' ratios, at least 95%)",
      rounds);
}

// The ab file: the comparison, and each point's rounds.
Json ab_json(const Comparison& c, const std::vector<Json>& rounds, const Job& job,
             const AbOptions& o, const Json& environment) {
  Json doc = comparison_json(c);
  doc["schema"] = "schedbench.ab/1";
  doc["job"] = job.name;
  doc["a_point"] = o.a_point;
  doc["b_point"] = o.b_point;
  doc["rounds"] = o.rounds;
  doc["environment"] = environment;
  for (size_t i = 0; i < rounds.size(); ++i)
    doc["points"][i]["rounds"] = rounds[i];
  return doc;
}

}  // namespace

std::string build_point(const std::string& option, const std::string& path) {
  const fs::path p(path);
  std::error_code error;
  std::vector<fs::path> tried;
  if (fs::is_directory(p, error)) {
    tried = {p / "bin" / "schedbench-point", p / "schedbench-point"};
  } else if (p.filename() == "schedbench-point") {
    tried = {p};
  } else if (executable_file(p)) {
    tried = {p.parent_path() / "schedbench-point"};
  }
  for (const fs::path& t : tried) {
    if (executable_file(t)) return fs::absolute(t).string();
  }
  throw UsageError(fmt::format(
      "{}: '{}' holds no executable schedbench-point; accepted: a schedbench (its schedbench-point "
      "beside it), a schedbench-point, a build's bin folder or an install prefix "
      "(PREFIX/bin/schedbench-point)",
      option, printable(path)));
}

int run_ab(const Job& job, const AbOptions& o) {
  check_launcher(job, o.launcher);
  const Json environment = environment_json();
  const std::string path =
      o.out_path.empty() ? fmt::format("results/{}/ab-{}.json", device_slug(environment), job.name)
                         : o.out_path;
  check_output_file("--out", path, !o.overwrite);
  const StopSignals stop_signals;
  const ResultsLock lock(path);
  const ScratchDir scratch(path);  // outlives the runs, which write into it
  fmt::print("{}: {} points, {} rounds each of A {} and B {} -> {}\n", job.path, job.points.size(),
             o.rounds, o.a_point, o.b_point, path);
  Comparison c{o.a, o.b, o.compare, ab_method(o.rounds), {}, {}, {}, 1};
  std::vector<Json> rounds_of;  // each compared point's rounds
  for (size_t k = 0; k < job.points.size(); ++k) {
    const std::string& label = job.points[k].label;
    std::vector<Json> a_runs, b_runs;
    std::vector<double> ratios;
    Json rounds = Json::array();
    for (int round = 0; round < o.rounds; ++round) {
      // ABBA...: either build runs first as often, so that what the first run of a pair pays
      // (or the second) lands on both.
      const bool a_first = round % 2 == 0;
      for (const bool a_now : {a_first, !a_first}) {
        const std::optional<Json> rec =
            run_once(job, k, a_now ? o.a_point : o.b_point, round, o, scratch);
        if (!rec) {
          fmt::print("\ninterrupted: the finished points are in {}\n", path);
          return 130;
        }
        if ((*rec)["status"] != "ok") {
          throw RunError(fmt::format("{}: build {} failed in round {}: {}", label,
                                     a_now ? "A" : "B", round + 1, point_outcome(*rec)));
        }
        (a_now ? a_runs : b_runs).push_back(*rec);
      }
      const double a_ms = a_runs.back()["stats"]["median_ms"].get<double>();
      const double b_ms = b_runs.back()["stats"]["median_ms"].get<double>();
      ratios.push_back(b_ms / a_ms);
      rounds.push_back({{"first", a_first ? "A" : "B"}, {"a_ms", a_ms}, {"b_ms", b_ms}});
      fmt::print("[{}/{}] {} round {}/{}: A {:.3f} ms, B {:.3f} ms\n", k + 1, job.points.size(),
                 label, round + 1, o.rounds, a_ms, b_ms);
      std::fflush(stdout);
    }
    // Each build's rounds as one record: all its repetitions, and one digest or a failure.
    const Json a = merge_visits(job.sampling, a_runs), b = merge_visits(job.sampling, b_runs);
    for (const Json* rec : {&a, &b}) {
      if ((*rec)["status"] != "ok")
        throw RunError(fmt::format("{}: build {}: {}", label, rec == &a ? "A" : "B",
                                   (*rec)["error"].get<std::string>()));
    }
    const MedianInterval interval = median_interval(ratios);
    const double ratio = spread_of(ratios).median;
    c.points.push_back({label, a["stats"]["median_ms"].get<double>(),
                        b["stats"]["median_ms"].get<double>(), ratio, interval.lo, interval.hi,
                        verdict_of(interval.lo, interval.hi, o.compare),
                        a["digest"] != b["digest"]});
    rounds_of.push_back(rounds);
    set_geometric_mean(c);
    write_file_atomically(path, ab_json(c, rounds_of, job, o, environment).dump(2) + "\n");
  }
  fmt::print("\nA: {}\nB: {}\n{}", o.a_point, o.b_point, comparison_text(c, o.markdown));
  fmt::print("results in {}\n", path);
  return 0;
}

}  // namespace sb
