#include "harness/cli/batch_cli.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <optional>
#include <regex>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/values.hpp"
#include "harness/bench/compare.hpp"
#include "harness/bench/noise_floor.hpp"
#include "harness/bench/sampling.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/environment.hpp"
#include "harness/io/output_path.hpp"
#include "harness/job/job.hpp"
#include "harness/job/job_results.hpp"
#include "harness/job/results_export.hpp"
#include "harness/sweep/ab.hpp"
#include "harness/sweep/point_process.hpp"
#include "harness/sweep/progress.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxMaxPoints = 1000000000;  // a billion points: days on any machine

void parse_shard(const std::string& text, SweepOptions& o) {
  const std::vector<std::string> parts = split(text, '/');
  const auto bad = [&] {
    return UsageError(fmt::format(
        "--shard: '{}' is not I/N; accepted: whole numbers with 1 <= I <= N", printable(text)));
  };
  if (parts.size() != 2) throw bad();
  try {
    o.shard_count = static_cast<int>(parse_whole("--shard", parts[1], 1, kMaxShards));
    o.shard_index = static_cast<int>(parse_whole("--shard", parts[0], 1, kMaxShards));
  } catch (const UsageError&) {
    throw bad();
  }
  if (o.shard_index > o.shard_count) throw bad();
}

std::vector<std::string> parse_gpus(const std::string& text, int devices) {
  std::vector<std::string> out;
  for (const std::string& g : split(text, ',')) {
    try {
      out.push_back(std::to_string(parse_whole("--gpus", g, 0, 1023)));
    } catch (const UsageError&) {
      throw UsageError(fmt::format(
          "--gpus: '{}' is not a list of device numbers; accepted e.g. 0,1,2", printable(text)));
    }
    if (std::count(out.begin(), out.end(), out.back()) > 1) {
      throw UsageError(
          fmt::format("--gpus: device {} is named twice in '{}'", out.back(), printable(text)));
    }
  }
  if (out.empty()) throw UsageError("--gpus: empty; accepted e.g. 0,1,2");
  // Points side by side on devices that do not exist would share the CPU and corrupt each
  // other's times.
  if (devices == 0) {
    throw UsageError(
        "--gpus: this machine has no CUDA device; accepted: no --gpus (points then run one at a "
        "time)");
  }
  for (const std::string& g : out) {
    if (std::stoi(g) >= devices) {
      throw UsageError(
          fmt::format("--gpus: device {} does not exist; accepted: 0 to {} ({} CUDA "
                      "device(s) here)",
                      g, devices - 1, devices));
    }
  }
  return out;
}

// What --list says of the job's estimate: it is for one H100, so points that all run on the CPU
// (a job's fallback) have none.
std::string estimate_note(const Job& job) {
  std::vector<size_t> all(job.points.size());
  std::iota(all.begin(), all.end(), size_t{0});
  const double estimate_s = h100_estimate(job, all);
  if (estimate_s > 0) return fmt::format("; estimated {} on one H100", format_duration(estimate_s));
  return job.estimated_s > 0 ? "; no estimate on the CPU (the job's is for one H100)" : "";
}

int list_points(const Job& job) {
  for (const std::string& why : job.skipped)
    fmt::print("{}: {}\n", job.path, why);
  for (const JobPoint& p : job.points)
    fmt::print("{}\n", p.label);
  const Sampling& s = job.sampling;
  const std::string timed =
      s.repetitions > 0
          ? fmt::format("{} repetitions", s.repetitions)
          : fmt::format("at least {} repetitions and {} s, more until within {}% (at most {} s)",
                        s.min_samples, s.min_time_s, s.max_noise_pct, s.max_time_s);
  fmt::print("{}: {} points, {} after {} warm-up each{}\n", job.path, job.points.size(), timed,
             s.warmup, estimate_note(job));
  return 0;
}

// The sampling options over the job's.
void override_sampling(const BatchArgs& a, Sampling& s) {
  if (!a.warmup.empty()) s.warmup = static_cast<int>(parse_whole("--warmup", a.warmup, 0, 100));
  if (!a.repetitions.empty())
    s.repetitions = static_cast<int>(parse_whole("--repetitions", a.repetitions, 1, 1000));
  const bool rule =
      !a.min_samples.empty() || !a.min_time.empty() || !a.max_time.empty() || !a.max_noise.empty();
  if (rule && !a.repetitions.empty()) {
    throw UsageError(
        "--repetitions: a fixed count, or the stopping rule (--min-samples, --min-time, "
        "--max-time, --max-noise): choose one");
  }
  if (rule) s.repetitions = 0;  // the rule replaces the job's fixed count
  if (!a.min_samples.empty())
    s.min_samples = static_cast<int>(parse_whole("--min-samples", a.min_samples, 1, 1000));
  if (!a.min_time.empty()) s.min_time_s = parse_real("--min-time", a.min_time, 0, 3600);
  if (!a.max_time.empty()) s.max_time_s = parse_real("--max-time", a.max_time, 0, 3600);
  if (!a.max_noise.empty()) s.max_noise_pct = parse_real("--max-noise", a.max_noise, 0, 100);
  if (s.min_time_s > s.max_time_s) {
    throw UsageError(
        fmt::format("--min-time: {} s is above the most time {} s; accepted: at most "
                    "--max-time",
                    s.min_time_s, s.max_time_s));
  }
  const ControlDeclaration &l2 = l2_control(), &lock = lock_clocks_control();
  if (!a.l2.empty()) s.l2 = static_cast<L2State>(control_value(l2, l2.flag, a.l2));
  if (!a.lock_clocks.empty())
    s.lock_clocks = static_cast<ClockLock>(control_value(lock, lock.flag, a.lock_clocks));
}

// The option of a measurement control, its values as its type.
void add_control_option(CLI::App& cmd, const ControlDeclaration& d, std::string& value) {
  cmd.add_option(d.flag, value, d.help)->type_name(fmt::format("{}", fmt::join(d.values, "|")));
}

// The job file, read with --max-points, -a and --filter, and the sampling options applied.
Job load_job_of(const BatchArgs& a, bool have_gpu) {
  const uint64_t max_points = a.max_points.empty()
                                  ? kDefaultMaxPoints
                                  : parse_whole("--max-points", a.max_points, 1, kMaxMaxPoints);
  JobEdits edits;
  for (const std::string& text : a.axis_edits)
    edits.axes.push_back(parse_axis_edit("-a", text));
  edits.filters = a.filters;
  Job job = a.job_path.empty() ? command_line_job(have_gpu, max_points, edits)
                               : load_job(a.job_path, have_gpu, max_points, edits);
  override_sampling(a, job.sampling);
  return job;
}

int sweep_command(BatchArgs& a) {
  refuse_launched("sweep");
  const Job job = load_job_of(a, cuda_device_present());
  SweepOptions& o = a.sweep_options;
  o.out_path = a.out_path;
  o.summary_format = a.summary_format;
  if (!a.interleave.empty())
    o.interleave = static_cast<int>(parse_whole("--interleave", a.interleave, 1, 100));
  check_visits(job.sampling, o.interleave);
  if (!a.order_seed.empty()) {
    if (a.interleave.empty()) throw UsageError("--order-seed: needs --interleave");
    o.order_seed = static_cast<uint32_t>(parse_whole("--order-seed", a.order_seed, 0, 4294967295));
  }
  if (!a.shard.empty()) parse_shard(a.shard, o);
  if (!a.gpus.empty()) o.gpus = parse_gpus(a.gpus, cuda_device_count());
  if (!a.point_timeout.empty())
    o.point_timeout_s = parse_real("--point-timeout", a.point_timeout, 1, 1e6);
  if (o.resume && o.overwrite) throw UsageError("--resume and --overwrite: choose one");
  if (o.retry_failed && !o.resume) throw UsageError("--retry-failed: needs --resume");
  if (a.list) return list_points(job);  // every option checked, as for a sweep that runs
  o.runner = point_runner(a.runner);
  o.launcher = point_launcher(a.launcher);
  const int failed = run_sweep(job, o);
  // Stopped by a signal, also one that came after the last point ended.
  if (failed < 0 || StopSignals::requested()) return 130;
  return failed == 0 ? 0 : 3;
}

int merge_command(const BatchArgs& a) {
  const MergeOutcome merged = merge_shards(a.out_path);
  if (!merged.unfinished.empty()) {
    for (const std::string& line : merged.unfinished)
      fmt::print(stderr, "schedbench: merge: {}\n", line);
    fmt::print(stderr, "schedbench: merge: {} not written\n", a.out_path);
    return 3;
  }
  fmt::print("merged {} points into {}\n", merged.points, a.out_path);
  return 0;
}

// A job whose every point runs a CPU scheduler asks Slurm for cores only.
bool cpu_only(const Job& job) {
  return std::all_of(job.points.begin(), job.points.end(), [](const JobPoint& p) {
    return find_scheduler(p.config.scheduler).kind == SchedulerKind::kCpu;
  });
}

// The nodes and ranks per node a job of several-rank points asks for: enough for its largest
// point, --nodes 1 and as many ranks on it unless told otherwise.
void plan_ranks(const Job& job, const BatchArgs& a, SlurmRequest& r) {
  const auto most = std::max_element(
      job.points.begin(), job.points.end(),
      [](const JobPoint& x, const JobPoint& y) { return x.config.ranks < y.config.ranks; });
  const uint64_t ranks = most->config.ranks;
  const auto given = [&](const char* option) { return a.submit->get_option(option)->count() > 0; };
  point_launcher(a.slurm_launcher);  // checked: names where the count goes
  r.launcher = a.slurm_launcher;
  if (ranks == 1 && !given("--nodes") && !given("--ranks-per-node")) return;
  if (given("--gpus-per-shard")) {
    throw UsageError(
        fmt::format("--gpus-per-shard: {} takes ranks, one GPU each; accepted for it: --nodes and "
                    "--ranks-per-node",
                    a.job_path));
  }
  r.nodes = static_cast<int>(parse_whole("--nodes", a.nodes, 1, 100000));
  const uint64_t per_node = (ranks + r.nodes - 1) / r.nodes;
  r.ranks_per_node =
      given("--ranks-per-node")
          ? static_cast<int>(parse_whole("--ranks-per-node", a.ranks_per_node, 1, 4096))
          : static_cast<int>(per_node);
  if (static_cast<uint64_t>(r.nodes) * r.ranks_per_node < ranks) {
    throw UsageError(fmt::format(
        "--ranks-per-node: {} on {} node(s) is {} ranks, but point {} takes {}; accepted: at "
        "least {} ranks per node",
        r.ranks_per_node, r.nodes, r.nodes * r.ranks_per_node, most->label, ranks, per_node));
  }
}

// Exit code of compare where --fail-if-slower finds a point slower beyond it, or a digest change.
constexpr int kCompareFailed = 4;

// compare --noise-floor: the floor of the device each file was measured on, the wider where they
// differ.
void set_noise_floor(const BatchArgs& a, const nlohmann::ordered_json& doc_a,
                     const nlohmann::ordered_json& doc_b, CompareOptions& o) {
  const nlohmann::ordered_json floors = read_floor_file(a.noise_floor);
  o.floor = floor_of(floors, a.noise_floor, results_device(doc_a, a.compare_a));
  if (!doc_b.is_null())
    o.floor =
        std::max(o.floor, floor_of(floors, a.noise_floor, results_device(doc_b, a.compare_b)));
  o.floor_file = a.noise_floor;
}

// compare --calibrate: the device both files were measured on.
std::string calibrated_device(const BatchArgs& a, const nlohmann::ordered_json& doc_a,
                              const nlohmann::ordered_json& doc_b) {
  const std::string device = results_device(doc_a, a.compare_a);
  if (results_device(doc_b, a.compare_b) != device) {
    throw UsageError(fmt::format(
        "--calibrate: {} was measured on {} but {} on {}; accepted: an A/A pair, one build swept "
        "twice on one device",
        a.compare_a, device, a.compare_b, results_device(doc_b, a.compare_b)));
  }
  return device;
}

int compare_command(const BatchArgs& a) {
  CompareOptions o;
  o.same_within = parse_real("--same-within", a.same_within, 0, 100) / 100;
  const bool gate = a.compare->get_option("--fail-if-slower")->count() > 0;  // as a CI check
  const double fail_beyond =
      gate ? parse_real("--fail-if-slower", a.fail_if_slower, 0, 1000) / 100 : 0.0;
  if (!a.out_path.empty()) check_output_file("--out", a.out_path, false);
  if (!a.calibrate.empty()) check_output_file("--calibrate", a.calibrate, false);
  if (a.compare_b.empty() == a.compare_by.empty()) {
    throw UsageError(
        "compare: name two results files A B, or one with --by KEY=BASELINE (e.g. --by "
        "scheduler=dynamic-warp)");
  }
  if (!a.calibrate.empty() && (!a.compare_by.empty() || !a.noise_floor.empty())) {
    throw UsageError(
        "--calibrate: measures the noise floor of two results files A B (one build swept twice), "
        "without --by or --noise-floor");
  }
  const nlohmann::ordered_json doc_a = read_results_file(a.compare_a);
  const nlohmann::ordered_json doc_b =
      a.compare_b.empty() ? nlohmann::ordered_json() : read_results_file(a.compare_b);
  if (!a.noise_floor.empty()) set_noise_floor(a, doc_a, doc_b, o);
  Comparison c;
  if (a.compare_by.empty()) {
    c = compare_results(doc_a, doc_b, a.compare_a, a.compare_b, o);
  } else {
    const size_t eq = a.compare_by.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.compare_by.size()) {
      throw UsageError(
          fmt::format("--by: '{}' is not KEY=BASELINE; accepted e.g. "
                      "scheduler=dynamic-warp or block_size=128",
                      printable(a.compare_by)));
    }
    c = compare_within(doc_a, a.compare_a, a.compare_by.substr(0, eq), a.compare_by.substr(eq + 1),
                       o);
    if (c.points.empty()) {
      throw UsageError(
          fmt::format("--by: no point of {} has a baseline with {}; accepted: a "
                      "parameter and a value some of its ok points have",
                      a.compare_a, a.compare_by));
    }
  }
  // With --calibrate: the floor file to write, checked before anything is written.
  const std::string device = a.calibrate.empty() ? "" : calibrated_device(a, doc_a, doc_b);
  const nlohmann::ordered_json floors =
      a.calibrate.empty()
          ? nullptr
          : with_calibrated_floor(
                std::filesystem::exists(a.calibrate) ? read_floor_file(a.calibrate) : nullptr, c,
                device);
  const std::string text = a.compare_format == "json"
                               ? comparison_json(c).dump(2) + "\n"
                               : comparison_text(c, a.compare_format == "md");
  if (a.out_path.empty()) {
    fmt::print("{}", text);
  } else {
    write_file_atomically(a.out_path, text);
    fmt::print("wrote {}\n", a.out_path);
  }
  if (!a.calibrate.empty()) {
    write_file_atomically(a.calibrate, floors.dump(2) + "\n");
    const nlohmann::ordered_json& entry = floors["devices"][device];
    fmt::print(a.compare_format == "json" ? stderr : stdout,  // stdout may be the comparison's JSON
               "noise floor of {}: {:.1f}% (the farthest interval from 1: {} B/A {:.3f} [{:.3f}, "
               "{:.3f}]), in {}\n",
               device, 100 * entry["floor"].get<double>(), entry["worst_point"].get<std::string>(),
               entry["worst_ratio"].get<double>(), entry["worst_interval"][0].get<double>(),
               entry["worst_interval"][1].get<double>(), a.calibrate);
  }
  if (!gate) return 0;
  // A gate passes on what it compared, never on nothing (B failed every point, or is another
  // job's).
  if (c.points.empty()) {
    fmt::print(stderr,
               "schedbench: compare: --fail-if-slower: no point of {} compared with {} ({} only "
               "in A, {} only in B; failed points are not compared)\n",
               a.compare_b, a.compare_a, c.only_a.size(), c.only_b.size());
    return kCompareFailed;
  }
  for (const PointComparison& p : c.points) {
    // A noisy point is not surely slower (add_pair); a changed digest fails the gate anyway.
    if ((p.verdict != "noisy" && slower_beyond(p.lo, fail_beyond, o)) || p.digest_changed) {
      fmt::print(
          stderr, "schedbench: compare: {}: {}\n", p.label,
          p.digest_changed
              ? "its digest changed"
              : fmt::format("slower by {:.1f}% (interval from {:+.1f}%), beyond "
                            "--fail-if-slower {}{}",
                            100 * (p.ratio - 1), 100 * (p.lo - 1), a.fail_if_slower,
                            o.floor_file.empty()
                                ? ""
                                : fmt::format(" and the noise floor {:.1f}%", 100 * o.floor)));
      return kCompareFailed;
    }
  }
  return 0;
}

int ab_command(BatchArgs& a) {
  refuse_launched("ab");
  AbOptions o;
  o.a = a.ab_a;
  o.b = a.ab_b;
  o.a_point = build_point("--a", a.ab_a);
  o.b_point = build_point("--b", a.ab_b);
  o.rounds = static_cast<int>(parse_whole("--rounds", a.rounds, kMinRounds, 1000));
  o.compare.same_within = parse_real("--same-within", a.same_within, 0, 100) / 100;
  o.out_path = a.out_path;
  o.overwrite = a.ab_overwrite;
  if (!a.point_timeout.empty())
    o.point_timeout_s = parse_real("--point-timeout", a.point_timeout, 1, 1e6);
  o.launcher = point_launcher(a.launcher);
  o.markdown = a.compare_format == "md";
  const Job job = load_job_of(a, cuda_device_present());
  return run_ab(job, o);
}

int export_command(const BatchArgs& a) {
  if (!a.out_path.empty()) check_output_file("--out", a.out_path, false);
  const nlohmann::ordered_json results = read_results_file(a.export_path);
  const std::string text = export_text(
      a.export_long ? repetition_rows(results) : results_rows(results), a.export_format);
  if (a.out_path.empty()) {
    fmt::print("{}", text);
  } else {
    write_file_atomically(a.out_path, text);
    fmt::print(stderr, "wrote {}\n", a.out_path);
  }
  return 0;
}

// The Python that has schedbench_results: $SCHEDBENCH_PYTHON, the checkout's .venv (make deps
// makes it), or python3 on PATH.
std::string report_python() {
  if (const char* chosen = std::getenv("SCHEDBENCH_PYTHON"); chosen != nullptr && *chosen != 0)
    return chosen;
  const fs::path venv = fs::path(SB_SOURCE_DIR) / ".venv" / "bin" / "python";
  return access(venv.c_str(), X_OK) == 0 ? venv.string() : "python3";
}

// The report is Python's (schedbench_results.report): this process becomes it, so that its
// output, its exit code (2 for a folder without results) and a signal are the command's own.
int report_command(const BatchArgs& a) {
  const std::string out =
      a.out_path.empty() ? (fs::path(a.report_dir) / "report").string() : a.out_path;
  std::vector<std::string> args = {report_python(), "-m",    "schedbench_results.report",
                                   a.report_dir,    "--out", out};
  args.insert(args.end(), a.report_jobs.begin(), a.report_jobs.end());
  // A folder without catalog.json is read with this tool's own catalog (schedbench list --json),
  // unless $SCHEDBENCH names another tool.
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (!error) setenv("SCHEDBENCH", self.c_str(), 0);
  std::vector<char*> argv;
  for (std::string& word : args)
    argv.push_back(word.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execvp(argv[0], argv.data());
  throw UsageError(
      fmt::format("report: cannot run {} ({}); accepted: make deps (the checkout's .venv), or "
                  "SCHEDBENCH_PYTHON naming a Python with schedbench_results (pip install python/)",
                  args[0], std::strerror(errno)));
}

int submit_command(BatchArgs& a) {
  if (!a.slurm) throw UsageError("submit: name the batch system; accepted: --slurm");
  const Job job = load_job_of(a, true);
  SlurmRequest& r = a.slurm_request;
  r.max_points = a.max_points;  // checked by load_job_of: a decimal whole number
  r.name = job.name;
  r.job_path = fs::absolute(a.job_path).string();
  r.workdir = fs::current_path().string();
  r.schedbench = fs::read_symlink("/proc/self/exe").string();
  r.results_path =
      fs::absolute(a.out_path.empty() ? fmt::format("results/slurm/{}.json", job.name) : a.out_path)
          .string();
  r.shards = static_cast<int>(parse_whole("--shards", a.shards, 1, 10000));
  r.cpu_only = cpu_only(job);
  const auto given = [&](const char* option) { return a.submit->get_option(option)->count() > 0; };
  if (r.cpu_only && given("--gpus-per-shard")) {
    throw UsageError(fmt::format(
        "--gpus-per-shard: {} runs CPU schedulers only, so its shards ask for no GPU; accepted "
        "for it: --cpus-per-shard",
        a.job_path));
  }
  r.gpus_per_shard = static_cast<int>(parse_whole("--gpus-per-shard", a.gpus_per_shard, 1, 64));
  plan_ranks(job, a, r);
  // A GPU job's shard runs a point process per GPU at once: a core each unless told otherwise.
  r.cpus_per_shard =
      !given("--cpus-per-shard")
          ? (r.cpu_only ? 1 : r.gpus_per_shard)
          : static_cast<int>(parse_whole("--cpus-per-shard", a.cpus_per_shard, 1, 4096));
  if (!std::regex_match(r.time_limit, std::regex(R"((\d+-)?\d+(:\d\d){0,2})"))) {
    throw UsageError(fmt::format(
        "--time: '{}' is not a Slurm time; accepted e.g. 90, 01:30:00, 1-00:00:00", r.time_limit));
  }
  const std::string script = a.script_path.empty() ? job.name + ".slurm.sh" : a.script_path;
  check_output_file("--out", r.results_path);
  check_output_file("--script", script);
  write_file_atomically(script, slurm_script(r), 0755);
  fmt::print("wrote {}: `bash {}` submits {} ({} points, {}) {} into {}\n", script, script,
             a.job_path, job.points.size(), r.cpu_only ? "CPU only" : "on GPUs",
             r.shards == 1 ? "as one job" : fmt::format("as {} shards and their merge", r.shards),
             r.results_path);
  return 0;
}

}  // namespace

std::string max_points_help() {
  return fmt::format("refuse a job of more points (default {}; at most {})", kDefaultMaxPoints,
                     kMaxMaxPoints);
}

// What makes the job a command runs: the axes' edits, the filters, the sampling over the job's and
// the most points (sweep, ab).
void add_job_options(CLI::App& cmd, BatchArgs& a) {
  cmd.add_option("-a,--axis", a.axis_edits,
                 "KEY=VALUES: set an axis in every sub-sweep, replacing the job's or added "
                 "(e.g. block_size=32,64 or 'init_n={\"log\":[1e3,1e6],\"points\":4}'); "
                 "sim=... and scheduler=... set the job's sims and schedulers; repeatable")
      ->type_name("KEY=VALUES");
  cmd.add_option("--filter", a.filters,
                 fmt::format("run only the points whose label (sim__scheduler__varying values, "
                             "as --list prints them) matches this regular expression (at most "
                             "{} characters, without {{n}} or back-references); repeatable (all "
                             "must match)",
                             kMaxFilterChars))
      ->type_name("REGEX");
  cmd.add_option("--repetitions", a.repetitions,
                 "exactly this many timed runs per point (1-1000), instead of the stopping "
                 "rule")
      ->type_name("WHOLE:1..1000");
  cmd.add_option("--warmup", a.warmup, "untimed runs before them (0-100; default 1)")
      ->type_name("WHOLE:0..100");
  cmd.add_option("--min-samples", a.min_samples,
                 "stopping rule: at least this many timed runs (default 6)")
      ->type_name("WHOLE:1..1000");
  cmd.add_option("--min-time", a.min_time,
                 "stopping rule: at least this many seconds of wall time of timed runs, the time "
                 "between them included (default 0)")
      ->type_name("SECONDS:0..3600");
  cmd.add_option(
         "--max-time", a.max_time,
         "stopping rule: no more runs after this many seconds of wall time of them, the time "
         "between them included (default 10)")
      ->type_name("SECONDS:0..3600");
  cmd.add_option("--max-noise", a.max_noise,
                 "stopping rule: percent; runs go on until the 95% interval of the median "
                 "lies within it of the median (default 2)")
      ->type_name("PERCENT:0..100");
  add_control_option(cmd, l2_control(), a.l2);
  add_control_option(cmd, lock_clocks_control(), a.lock_clocks);
  cmd.add_option("--max-points", a.max_points, max_points_help());
}

// How a command runs each point's process (sweep, ab).
void add_point_options(CLI::App& cmd, BatchArgs& a) {
  cmd.add_option("--point-timeout", a.point_timeout,
                 "seconds before a point is killed and recorded as failed (default: its runs' "
                 "watchdog times (warm-up + least repetitions) + --max-time + 60)");
  cmd.add_option("--launcher", a.launcher,
                 fmt::format("MPI launcher of a point of several ranks, with {{ranks}} for "
                             "their count (default '{}')",
                             kDefaultLauncher));
}

void add_batch_commands(CLI::App& app, BatchArgs& a) {
  a.sweep = app.add_subcommand(
      "sweep",
      "run every point of a job file (or of the -a axes alone), each in its own process "
      "(jobs/README.md)");
  a.sweep->add_option("job", a.job_path,
                      "job file; without one, the job is the -a axes alone (-a sim=NAME, "
                      "-a scheduler=NAME[,NAME], -a KEY=VALUES ...)");
  a.sweep
      ->add_option("--out", a.out_path,
                   "results file (default results/<device>/<job name>.json; results/README.md)")
      ->check(output_file());
  a.sweep->add_flag("--resume", a.sweep_options.resume,
                    "keep the results file's finished points, run the others");
  a.sweep->add_flag("--retry-failed", a.sweep_options.retry_failed,
                    "with --resume: run its failed points again");
  a.sweep->add_flag("--overwrite", a.sweep_options.overwrite,
                    "start afresh although the results file exists");
  a.sweep->add_option(
      "--shard", a.shard,
      "I/N: run every N-th point from the I-th (1 <= I <= N), into <out>.shard-I-of-N.json");
  a.sweep->add_option("--gpus", a.gpus,
                      "CUDA devices to run points on at once, e.g. 0,1 (default: one at a time)");
  add_point_options(*a.sweep, a);
  a.sweep->add_option(
      "--runner", a.runner,
      "command that runs one point, given REQUEST RESULT (default: schedbench-point)");
  a.sweep->add_flag("--list", a.list, "print the points and the estimate; run nothing");
  a.sweep
      ->add_option("--format", a.summary_format,
                   "the summary printed at the end: text (default), md, csv or json")
      ->check(CLI::IsMember({"text", "md", "csv", "json"}));
  a.sweep
      ->add_option("--interleave", a.interleave,
                   "V (1-100): measure each point in V visits, each its own process with its "
                   "share of the repetitions, the visits of all points in a seeded random "
                   "order, so that drift (clocks, heat, neighbours) spreads over all points")
      ->type_name("WHOLE:1..100");
  a.sweep
      ->add_option("--order-seed", a.order_seed,
                   "with --interleave: the seed of the visits' order (default 1)")
      ->type_name("WHOLE:0..4294967295");
  add_job_options(*a.sweep, a);

  a.compare = app.add_subcommand(
      "compare",
      "compare two results files point by point (or one file's points against a baseline with "
      "--by): B's median against A's with a bootstrap interval, and a verdict (faster, slower, "
      "same, unsure; noisy where either file marks the point noisy) per point; --calibrate "
      "measures a device's noise floor from an A/A pair, --noise-floor widens the verdicts by "
      "it");
  a.compare->add_option("A", a.compare_a, "the baseline results file")->required();
  a.compare->add_option("B", a.compare_b, "the results file compared with it");
  a.compare
      ->add_option("--by", a.compare_by,
                   "KEY=BASELINE: compare within A alone, each point against the point with "
                   "KEY at BASELINE and its other parameters equal (e.g. "
                   "scheduler=dynamic-warp)")
      ->type_name("KEY=BASELINE");
  a.compare->add_option("--format", a.compare_format, "text (default), md or json")
      ->check(CLI::IsMember({"text", "md", "json"}));
  a.compare->add_option("--same-within", a.same_within,
                        "percent: a point whose whole interval lies within it of A is 'same' "
                        "(default 3)");
  a.compare->add_option("--fail-if-slower", a.fail_if_slower,
                        "percent: exit 4 where a point is slower beyond it (its whole interval) "
                        "or its digest changed, or where no point was compared");
  a.compare->add_option("--out", a.out_path, "write the comparison here instead of stdout")
      ->check(output_file());
  a.compare->add_option("--noise-floor", a.noise_floor,
                        "FLOOR.json: widen what counts as a difference by the drift between two "
                        "sweeps of one build on each file's device, as --calibrate measured it");
  a.compare
      ->add_option("--calibrate", a.calibrate,
                   "FLOOR.json: A and B are one build swept twice (an A/A pair); write their "
                   "device's noise floor (the largest drift of a point's median) into this file, "
                   "keeping other devices' floors")
      ->check(output_file());

  a.ab = app.add_subcommand(
      "ab",
      "measure a job's points with two builds (schedbench binaries, build folders or install "
      "prefixes), point by point, each point's rounds alternating which build runs first; print "
      "B's median against A's with an interval and a verdict from the rounds' ratios, and write "
      "them");
  a.ab->add_option("job", a.job_path, "job file; without one, the job is the -a axes alone");
  a.ab->add_option("--a", a.ab_a,
                   "the baseline build: a schedbench (its schedbench-point beside it), a "
                   "schedbench-point, a build's bin folder or an install prefix")
      ->required();
  a.ab->add_option("--b", a.ab_b, "the build compared with it, in the same forms")->required();
  a.ab->add_option("--rounds", a.rounds,
                   fmt::format("rounds per point, each a run of A and one of B, each with its "
                               "share of the job's repetitions ({}-1000; default 10)",
                               kMinRounds))
      ->type_name(fmt::format("WHOLE:{}..1000", kMinRounds));
  a.ab->add_option("--same-within", a.same_within,
                   "percent: a point whose whole interval lies within it of 1 is 'same' "
                   "(default 3)");
  a.ab->add_option("--out", a.out_path,
                   "the comparison file (default results/<device>/ab-<job name>.json)")
      ->check(output_file());
  a.ab->add_flag("--overwrite", a.ab_overwrite, "replace the comparison file if it exists");
  a.ab->add_option("--format", a.compare_format, "the table: text (default) or md")
      ->check(CLI::IsMember({"text", "md"}));
  add_point_options(*a.ab, a);
  add_job_options(*a.ab, a);

  a.export_results = app.add_subcommand(
      "export",
      "a results file as one flat table, a row per point (the configuration's parameters, then "
      "stats.*, counts.*, counters.*, ..., noisy), or with --long a row per repetition, for "
      "pandas, R or a spreadsheet");
  a.export_results->add_option("results", a.export_path, "the results file")->required();
  a.export_results->add_option("--format", a.export_format, "csv (default), md or json")
      ->check(CLI::IsMember({"csv", "md", "json"}));
  a.export_results->add_flag("--long", a.export_long,
                             "a row per repetition: label, configuration, repetition (from 0), "
                             "time_ms");
  a.export_results->add_option("--out", a.out_path, "write the table here instead of stdout")
      ->check(output_file());

  a.report = app.add_subcommand(
      "report",
      "a report (REPORT.md, REPORT.html, figures) of the jobs a results folder holds, any "
      "device's, the user's own jobs included, by the Python package schedbench_results");
  a.report->add_option("results", a.report_dir, "the folder of results files")->required();
  a.report->add_option("jobs", a.report_jobs, "only these jobs, in this order (default: all)");
  a.report->add_option("--out", a.out_path, "the report's folder (default RESULTS/report)");

  a.merge = app.add_subcommand("merge",
                               "join the shard files of a sweep (X.shard-I-of-N.json) into X.json");
  a.merge->add_option("results", a.out_path, "the merged results file to write (replaced)")
      ->required()
      ->check(output_file());

  a.submit = app.add_subcommand(
      "submit",
      "write a script that runs a sweep on a cluster, in shards and a merge or as one job");
  a.submit->add_option("job", a.job_path, "job file")->required();
  a.submit->add_flag("--slurm", a.slurm,
                     "for Slurm: one job, or a job array of shards and a merge job after them");
  a.shards = "1";
  a.gpus_per_shard = "1";
  a.slurm_request.time_limit = "01:00:00";
  a.submit->add_option("--shards", a.shards, "number of shards (default 1)");
  a.submit->add_option("--gpus-per-shard", a.gpus_per_shard,
                       "GPUs each shard runs points on (default 1); a CPU-only job asks for none");
  a.submit->add_option("--cpus-per-shard", a.cpus_per_shard,
                       "CPU cores each shard asks for (default: 1 for a CPU-only job, one per "
                       "GPU otherwise)");
  a.nodes = "1";
  a.submit->add_option("--nodes", a.nodes,
                       "nodes each shard asks for, where the job's points take several ranks "
                       "(default 1)");
  a.submit->add_option("--ranks-per-node", a.ranks_per_node,
                       "ranks (Slurm tasks, one GPU each) per node (default: the job's most ranks "
                       "over --nodes)");
  a.submit->add_option("--launcher", a.slurm_launcher,
                       "the launcher of a point of several ranks in a shard, with {ranks} for "
                       "their count (default 'srun -n {ranks}'; e.g. 'srun --mpi=pmix -n "
                       "{ranks}' or 'mpirun -n {ranks}' where the cluster says so)");
  a.submit->add_option("--time", a.slurm_request.time_limit,
                       "time limit per shard (default 01:00:00)");
  a.submit->add_option("--partition", a.slurm_request.partition, "Slurm partition");
  a.submit->add_option("--account", a.slurm_request.account, "Slurm account");
  a.submit
      ->add_option("--out", a.out_path,
                   "merged results file (default results/slurm/<job name>.json)")
      ->check(output_file());
  a.submit
      ->add_option("--script", a.script_path,
                   "script to write (default <job name>.slurm.sh; replaced if it exists)")
      ->check(output_file());
  a.submit->add_option("--max-points", a.max_points, max_points_help());
}

bool run_batch_command(BatchArgs& a, int& exit_code) {
  if (a.compare->parsed()) {
    exit_code = compare_command(a);
  } else if (a.sweep->parsed()) {
    exit_code = sweep_command(a);
  } else if (a.ab->parsed()) {
    exit_code = ab_command(a);
  } else if (a.report->parsed()) {
    exit_code = report_command(a);
  } else if (a.export_results->parsed()) {
    exit_code = export_command(a);
  } else if (a.merge->parsed()) {
    exit_code = merge_command(a);
  } else if (a.submit->parsed()) {
    exit_code = submit_command(a);
  } else {
    return false;
  }
  return true;
}

}  // namespace sb
