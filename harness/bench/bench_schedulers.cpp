// Benchmarks the schedulers on a workload with Google Benchmark as the runner and statistics
// layer. The sweep is data: a workload (a RunConfig) and two named axes, scheduler and block
// size. Each point is timed with device events (manual time), repeated, and reported with
// mean, median, stddev and cv; a short table of medians and efficiency against `bound` is
// printed last.
//
//   bench_schedulers [--workload=mvp-block-size] [--schedulers=a,b] [--block-sizes=128,256]
//                    [--repetitions=3] [--init-n=N] [--steps=T] [--timeout=S]
//                    [Google Benchmark flags]
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <sstream>

#include "core/errors.hpp"
#include "harness/bench/gbench_support.hpp"
#include "harness/io/text_table.hpp"
#include "core/values.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

struct Workload {
  std::string name;
  std::string description;
  RunConfig config;  // everything but the scheduler and the block size
};

std::vector<Workload> workloads() {
  RunConfig mvp;
  mvp.sim = "mvp";
  mvp.init_n = 1'000'000;
  sb::steps_parameter().set(mvp, 10'000);
  sb::mvp::split_chance().set(mvp, 0.02);
  mvp.capacity = 100'000'000;
  mvp.timeout_s = 300;
  RunConfig pic;
  pic.sim = "pic";
  pic.init_n = 1'000'000;
  sb::pic::poisson_steps().set(pic, 10);
  sb::pic::mobility_steps().set(pic, 1000);
  pic.capacity = 100'000'000;
  pic.timeout_s = 300;
  return {{"mvp-block-size",
           "seed 003 §5.2.1: mvp, init_n 1e6, 1e4 steps, split chance 0.02 %, capacity 1e8", mvp},
          {"pic-default",
           "seed 003 §5.3: pic, init_n 1e6, 10 poisson x 1000 mobility steps, synthetic cross "
           "sections, capacity 1e8",
           pic}};
}

struct Options {
  Workload workload;
  std::vector<std::string> schedulers;
  std::vector<uint32_t> block_sizes = {32, 64, 128, 256, 512, 1024};
  int repetitions = 3;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    out.push_back(item);
  return out;
}

// Our flags; Google Benchmark prints its own after them.
void print_usage() {
  fmt::print(
      "bench_schedulers: the scheduler benchmark (docs/performance.md)\n"
      "  --workload=NAME        one of:\n");
  for (const Workload& w : workloads())
    fmt::print("      {:<18} {}\n", w.name, w.description);
  fmt::print(
      "  --schedulers=A,B       schedulers to run (default: every GPU scheduler)\n"
      "  --block-sizes=B1,B2    threads per block, multiples of 32 from 32 to 1024\n"
      "                         (default 32,64,128,256,512,1024)\n"
      "  --repetitions=R        timed runs per point (default 3)\n"
      "  --init-n=N             override the workload's initial particles\n"
      "  --steps=T              override the workload's steps (mvp; pic has its own phases)\n"
      "  --timeout=S            watchdog seconds per run\n\n");
}

// Takes our flags out of argv (Google Benchmark reads the rest); UsageError on bad values.
Options parse_options(int& argc, char** argv) {
  Options o;
  o.workload = workloads().front();
  for (const SchedulerEntry& e : all_schedulers()) {
    if (e.kind != SchedulerKind::kCpu) o.schedulers.push_back(e.name);
  }
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    const std::string flag = arg.substr(0, eq),
                      value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (flag == "--workload") {
      std::vector<std::string> names;
      for (const Workload& w : workloads())
        names.push_back(w.name);
      parse_choice(flag, value, names);
      for (const Workload& w : workloads()) {
        if (w.name == value) o.workload = w;
      }
    } else if (flag == "--schedulers") {
      o.schedulers = split(value);
      for (const std::string& s : o.schedulers) {
        try {
          find_scheduler(s);
        } catch (const UsageError&) {
          throw UsageError(fmt::format("{}: '{}' is not a scheduler (schedbench list)", flag, s));
        }
      }
    } else if (flag == "--block-sizes") {
      o.block_sizes.clear();
      for (const std::string& b : split(value)) {
        const auto size = static_cast<uint32_t>(parse_whole(flag, b, 32, 1024));
        if (size % 32 != 0)
          throw UsageError(fmt::format("{}: '{}' is not a multiple of 32", flag, b));
        o.block_sizes.push_back(size);
      }
    } else if (flag == "--repetitions") {
      o.repetitions = static_cast<int>(parse_whole(flag, value, 1, 100));
    } else if (flag == "--init-n") {
      o.workload.config.init_n = parse_whole(flag, value, 1, kMaxCount);
    } else if (flag == "--timeout") {
      o.workload.config.timeout_s = parse_real(flag, value, 0.1, 86400);
    } else if (flag == "--steps") {
      sb::steps_parameter().set(o.workload.config, static_cast<uint32_t>(parse_whole(flag, value, 1, kMaxCount)));
    } else {
      if (flag == "--help" || flag == "-h") print_usage();
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return o;
}

void run_point(benchmark::State& state, RunConfig c) {
  for (auto _ : state) {
    RunResult r;
    try {
      r = run(c);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
    state.SetIterationTime(r.time_ms * 1e-3);
    set_run_counters(state, r);
  }
}

std::string point_name(const std::string& workload, const std::string& scheduler, uint32_t block) {
  return fmt::format("{}/{}/block_size:{}", workload, scheduler, block);
}

// The console reporter, also keeping each point's median time for the summary: Google
// Benchmark's median aggregate where it computed one (2 or more repetitions), else the run.
class MedianCollector : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      const std::string& name = run.run_name.function_name;
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.error_occurred) {
        errors[name] = run.error_message;
      } else if (median || (run.run_type == Run::RT_Iteration && median_ms.count(name) == 0)) {
        median_ms[name] = run.GetAdjustedRealTime();
        const auto it = run.counters.find("particle_steps");
        if (it != run.counters.end()) particle_steps = it->second.value;
      }
    }
  }

  std::map<std::string, double> median_ms;
  std::map<std::string, std::string> errors;
  double particle_steps = 0;
};

void print_summary(const Options& o, const MedianCollector& c) {
  const std::string& w = o.workload.name;
  double bound_ms = 0;
  for (uint32_t b : o.block_sizes) {
    const auto it = c.median_ms.find(point_name(w, "bound", b));
    if (it != c.median_ms.end() && (bound_ms == 0 || it->second < bound_ms)) bound_ms = it->second;
  }
  TextTable t({"scheduler", "ms @128", "best block", "ms @best", "Gsteps/s @best",
               "efficiency @best", "efficiency @128"});
  for (const std::string& s : o.schedulers) {
    const auto at = [&](uint32_t b) {
      const auto it = c.median_ms.find(point_name(w, s, b));
      return it == c.median_ms.end() ? 0.0 : it->second;
    };
    uint32_t best = 0;
    for (uint32_t b : o.block_sizes) {
      if (at(b) > 0 && (best == 0 || at(b) < at(best))) best = b;
    }
    if (best == 0) {
      t.add_row({s, "failed", "", "", "", "", ""});
      continue;
    }
    const auto ms = [](double v) { return v > 0 ? fmt::format("{:.1f}", v) : std::string("-"); };
    const auto eff = [&](double v) {
      return v > 0 && bound_ms > 0 ? fmt::format("{:.2f}", bound_ms / v) : std::string("-");
    };
    t.add_row({s, ms(at(128)), std::to_string(best), ms(at(best)),
               fmt::format("{:.1f}", c.particle_steps / (at(best) * 1e-3) / 1e9), eff(at(best)),
               eff(at(128))});
  }
  fmt::print("\n{}: {}\nmedians of {} repetitions; efficiency = best bound time / time\n{}", w,
             o.workload.description, o.repetitions, t.str());
  for (const auto& [name, message] : c.errors)
    fmt::print("error: {}: {}\n", name, message);
}

int bench_main(int argc, char** argv) {
  Options o;
  try {
    o = parse_options(argc, argv);
    check_benchmark_out(argc, argv);
  } catch (const UsageError& e) {
    fmt::print(stderr, "bench_schedulers: error: {}\n", e.what());
    return 2;
  }
  if (const std::optional<int> code = start_benchmarks("bench_schedulers", argc, argv))
    return *code;
  for (const std::string& s : o.schedulers) {
    for (uint32_t b : o.block_sizes) {
      RunConfig c = o.workload.config;
      c.scheduler = s;
      c.block_size = b;
      benchmark::RegisterBenchmark(point_name(o.workload.name, s, b).c_str(), run_point, c)
          ->UseManualTime()
          ->Iterations(1)
          ->Repetitions(o.repetitions)
          ->DisplayAggregatesOnly(true)
          ->Unit(benchmark::kMillisecond);
    }
  }
  MedianCollector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  print_summary(o, collector);
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace sb

int main(int argc, char** argv) {
  return sb::bench_main(argc, argv);
}
