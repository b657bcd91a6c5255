#include "harness/cli/cli.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <sstream>

#include <unistd.h>

#include "core/decimal.hpp"
#include "core/declared_parameter.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/hash.hpp"
#include "core/printable.hpp"
#include "core/run_parameters.hpp"
#include "core/values.hpp"
#include "harness/cli/batch_cli.hpp"
#include "harness/cli/option_checks.hpp"
#include "harness/cli/run_progress.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/build_info.hpp"
#include "harness/io/gif.hpp"
#include "harness/io/output_path.hpp"
#include "harness/io/png.hpp"
#include "harness/io/text_table.hpp"
#include "harness/job/catalog.hpp"
#include "harness/job/job.hpp"
#include "harness/job/parameters.hpp"
#include "harness/job/run_report.hpp"
#include "harness/sweep/point_process.hpp"
#include "harness/sweep/recommend.hpp"
#include "harness/sweep/sweep_guard.hpp"
#include "ranks/communicator.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog.hpp"

namespace sb {
namespace {

constexpr const char* kAbout =
    "schedbench: schedulers for GPU particle simulations whose population changes as they run.\n"
    "Exit codes: 0 done, 1 internal or CUDA error, 2 bad input (nothing run or written),\n"
    "3 a run failed (capacity exceeded, out of memory, watchdog; in a sweep: some point failed)\n"
    "or an output file could not be written (README: Output files),\n"
    "4 compare --fail-if-slower found a point slower or a digest changed,\n"
    "130 a sweep or ab was interrupted (its finished points are kept).";

// How an error ends the program: its exit code, and its line's kind and message (no kind: the
// message alone, which says what failed); `silent` where another rank reports it.
struct Ending {
  int exit_code;
  std::string kind, what;
  bool silent = false;
};

Ending ending_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const UsageError& e) {
    return {2, "error", e.what()};
  } catch (const ranks::PeerFailure& e) {
    return {e.exit_code(), "", "", true};
  } catch (const ranks::RankFailure& e) {
    Ending own = ending_of(e.error());
    if (!e.rank_name().empty()) own.what = e.rank_name() + ": " + own.what;
    return own;
  } catch (const RunError& e) {
    return {3, "run failed", e.what()};
  } catch (const WriteError& e) {
    return {3, "", e.what()};
  } catch (const std::bad_alloc&) {
    // An allocation that no checked allocator named (core/memory.hpp names the buffer).
    return {3, "run failed",
            "out of host memory (this process's limit: ulimit -v, a cgroup, or the machine)"};
  } catch (const std::exception& e) {
    return {1, "internal error", e.what()};
  } catch (...) {
    return {1, "internal error", "an error of unknown type"};
  }
}

// Where a rank reports its own failure (ranks::RankFailure): stderr, but on a rank other than 0,
// whose stderr is quiet, the stream it had before (join_ranks).
FILE* g_run_errors = stderr;

// Flushed at once: the launcher may end a rank before its exit would flush the stream.
void print_to(FILE* to, const char* program, const std::string& kind, const std::string& what) {
  constexpr size_t kMaxChars = 4000;  // above any message of ours with its quoted values cut
  if (kind.empty()) {
    fmt::print(to, "{}: {}\n", program, printable(what, kMaxChars));
  } else {
    fmt::print(to, "{}: {}: {}\n", program, kind, printable(what, kMaxChars));
  }
  std::fflush(to);
}

// Reports `error` in one line on `to` (unless another rank reports it); its exit code.
int report(FILE* to, const char* program, const std::exception_ptr& error) {
  const Ending end = ending_of(error);
  if (!end.silent) print_to(to, program, end.kind, end.what);
  return end.exit_code;
}

// What `default` means for a scheduler's policies, per architecture.
std::string default_policy_text(const SchedulerPolicies& p) {
  std::vector<std::string> measured;
  for (const ArchDefault& d : p.defaults)
    measured.push_back(fmt::format("sm_{}: {}", d.compute_capability, d.policy));
  return fmt::format("{} (measured); any other architecture: {} (not measured)",
                     fmt::join(measured, ", "), p.defaults.front().policy);
}

// The tuning policies (--policy) of `only`, or of every scheduler that has them, with their
// constants.
TextTable policy_table(const SchedulerEntry* only = nullptr) {
  TextTable table({"scheduler", "policy", "constants", "what"});
  for (const SchedulerEntry& e : all_schedulers()) {
    if (e.policies.empty() || (only != nullptr && only != &e)) continue;
    table.add_row({e.name, kDefaultPolicy, "", default_policy_text(e.policies)});
    for (const PolicyInfo& p : e.policies.named) {
      std::vector<std::string> constants;
      for (const PolicyConstant& k : p.constants)
        constants.push_back(fmt::format("{} {}", k.name, k.value));
      table.add_row({e.name, p.name, fmt::format("{}", fmt::join(constants, ", ")), p.description});
    }
  }
  return table;
}

// The widest a line of `list` may be; `list NAME` and `list --json` hold the details.
constexpr size_t kListColumns = 100;

// `text` cut to at most `width` bytes, "..." marking a cut, never inside a UTF-8 character.
std::string cut(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  size_t end = width - 3;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;
  return text.substr(0, end) + "...";
}

// `text` broken into lines of at most `width` bytes at spaces, each after `indent`.
std::string wrapped(const std::string& text, size_t width, const std::string& indent) {
  std::string out, line;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return line.empty() ? out : out + indent + line + "\n";
}

// A two-or-more-column table whose last column is cut so that no line passes kListColumns.
std::string fitted(const std::vector<std::string>& head,
                   const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths(head.size());
  for (size_t i = 0; i + 1 < head.size(); ++i) {
    widths[i] = head[i].size();
    for (const auto& row : rows)
      widths[i] = std::max(widths[i], row[i].size());
  }
  size_t used = 0;
  for (size_t i = 0; i + 1 < head.size(); ++i)
    used += widths[i] + 2;
  TextTable table(head);
  for (std::vector<std::string> row : rows) {
    row.back() = cut(row.back(), kListColumns - used);
    table.add_row(std::move(row));
  }
  return table.str();
}

// One sim's or scheduler's whole entry: its description, and a sim's parameters or a
// scheduler's policies with their constants.
int list_one(const std::string& name) {
  for (const SimInfo& s : all_sims()) {
    if (s.name != name) continue;
    fmt::print("sim {}\n{}its parameters (beyond every run's):\n", s.name,
               wrapped(s.description, kListColumns - 2, "  "));
    for (const DeclaredParameter* d : s.parameters) {
      const Parameter* p = find_parameter(d->key);
      fmt::print("  {}\n{}", p->flag, wrapped(p->help, kListColumns - 6, "      "));
    }
    return 0;
  }
  for (const SchedulerEntry& e : all_schedulers()) {
    if (e.name != name) continue;
    fmt::print("scheduler {} ({})\n{}", e.name, kind_name(e.kind),
               wrapped(e.description, kListColumns - 2, "  "));
    if (!e.policies.empty())
      fmt::print("its tuning policies (--policy):\n{}", policy_table(&e).str());
    return 0;
  }
  std::vector<std::string> names;
  for (const SimInfo& s : all_sims())
    names.push_back(s.name);
  for (const SchedulerEntry& e : all_schedulers())
    names.push_back(e.name);
  throw UsageError(fmt::format("list: '{}' is no sim or scheduler; accepted: {}", printable(name),
                               fmt::join(names, ", ")));
}

int list_command(bool as_json, const std::string& name) {
  if (as_json) {
    fmt::print("{}\n", catalog_json().dump(2));
    return 0;
  }
  if (!name.empty()) return list_one(name);
  std::vector<std::vector<std::string>> sims, schedulers, policies;
  for (const SimInfo& s : all_sims())
    sims.push_back({s.name, s.description});
  for (const SchedulerEntry& e : all_schedulers()) {
    schedulers.push_back({e.name, kind_name(e.kind), e.description});
    if (e.policies.empty()) continue;
    std::vector<std::string> names = {kDefaultPolicy};
    for (const PolicyInfo& p : e.policies.named)
      names.push_back(p.name);
    policies.push_back({e.name, fmt::format("{}", fmt::join(names, ", "))});
  }
  fmt::print("{}\n{}\n{}\n", fitted({"sim", "description"}, sims),
             fitted({"scheduler", "kind", "description"}, schedulers),
             fitted({"scheduler", "tuning policies (--policy)"}, policies));
  fmt::print(
      "schedbench list NAME: a sim's parameters, or a scheduler's whole description and its "
      "policies'\nconstants; schedbench list --json: the catalog\n");
  return 0;
}

// The run parameters as options: what `run` and `recommend` share.
struct WorkloadArgs {
  RunConfig config;
  std::map<std::string, std::string> values;  // parameter key -> text, for options with values
  std::map<std::string, bool> switches;       // parameter key -> set, for switches
  std::map<std::string, CLI::Option*> options;
};

// What --help shows for a parameter's value: its kind and range, or its choices.
std::string value_type(const Parameter& p) {
  const DeclaredParameter& d = *p.declarations.front().second;
  switch (d.kind) {
    case ValueKind::kWhole:
      return fmt::format("WHOLE:{}..{}{}", d.whole_lo, d.whole_hi,
                         d.zero_word.empty() ? "" : "|" + d.zero_word);
    case ValueKind::kReal:
      return fmt::format("REAL:{}..{}", shortest_text(d.real_lo), shortest_text(d.real_hi));
    case ValueKind::kChoice:
      return fmt::format("{{{}}}", fmt::join(d.choices, ","));
    default:
      return "TEXT";
  }
}

// An option for every run parameter but those in `except` (which the command sets otherwise),
// and a hidden one for each old key of a renamed parameter, which still reads as the new one.
void add_parameter_options(CLI::App& cmd, WorkloadArgs& a,
                           const std::vector<std::string>& except = {}) {
  for (const Parameter& p : parameters()) {
    if (std::count(except.begin(), except.end(), p.key) > 0) continue;
    a.options[p.key] =
        p.is_switch ? cmd.add_flag(p.flag, a.switches[p.key], p.help)
                    : cmd.add_option(p.flag, a.values[p.key], p.help)->type_name(value_type(p));
  }
  for (const auto& [old_key, p] : renamed_keys()) {
    if (std::count(except.begin(), except.end(), p->key) > 0 || a.options.count(old_key) > 0)
      continue;
    const std::string flag = option_of(old_key);
    CLI::Option* o = p->is_switch ? cmd.add_flag(flag, a.switches[old_key])
                                  : cmd.add_option(flag, a.values[old_key]);
    a.options[old_key] = o->group("");
  }
}

// Sets the parameters given on the command line into a.config; returns their keys (a renamed
// one's new key).
std::vector<std::string> apply_parameters(WorkloadArgs& a) {
  std::vector<std::string> given;
  for (const auto& [key, option] : a.options) {
    if (option->count() == 0) continue;
    const std::string text =
        a.switches.count(key) > 0 ? (a.switches[key] ? "true" : "false") : a.values[key];
    given.push_back(set_parameter(key, a.config, option->get_name(), text)->key);
  }
  return given;
}

struct RunArgs : WorkloadArgs {
  std::string json_path;
  std::string density_dir;
  std::string density_phases;  // comma-separated phase indices; empty: every phase
  std::string frames_dir;
  std::optional<uint32_t> average_from;  // the first phase averaged; none: the second half
  bool overwrite = false;                // replace output files that exist
  std::string progress = "30";           // seconds between progress lines; 0: none
  double progress_s = 0;                 // `progress`, checked
};

constexpr double kMaxProgressS = 1e6;  // eleven days: beyond any run's length

constexpr uint32_t kMaxFrames = 500;      // beyond this an animation is too long to watch
constexpr uint32_t kDefaultFrames = 100;  // at most, without --frame-every
constexpr int kFrameDelayCs = 5;          // 20 frames a second

// Steps per frame: the sim's --frame-every, or the fewest that split the steps evenly into at most
// kDefaultFrames frames.
uint32_t steps_per_frame(const RunArgs& a, const DeclaredParameter& frame_every) {
  const auto steps = static_cast<uint32_t>(steps_parameter().whole(a.config));
  if (!frame_every.given(a.config)) {
    uint32_t frames = std::min(kDefaultFrames, steps);
    while (steps % frames != 0) {
      --frames;
    }
    return steps / frames;
  }
  const auto every = static_cast<uint32_t>(frame_every.whole(a.config));
  if (every > steps) {
    throw UsageError(
        fmt::format("--frame-every: {} is more than --steps {}; accepted: a divisor "
                    "of {}",
                    every, steps, steps));
  }
  if (steps / every > kMaxFrames) {
    throw UsageError(fmt::format(
        "--frame-every: {} makes {} frames of --steps {}; accepted: at most {} frames, every {} "
        "steps or more",
        every, steps / every, steps, kMaxFrames, (steps + kMaxFrames - 1) / kMaxFrames));
  }
  return every;
}

// Checks the frame options and, with --frames, splits the run into a phase per frame (the sim
// checks that the frames divide its steps when the run resolves); throws UsageError.
void plan_frames(RunArgs& a, const SimInfo& sim) {
  if (a.frames_dir.empty()) return;  // --frame-every alone splits the run into phases
  if (sim.frame_every == nullptr) {
    std::vector<std::string> accepted;
    for (const SimInfo& s : all_sims()) {
      if (s.frame_every != nullptr) accepted.push_back(s.name);
    }
    throw UsageError(fmt::format("--frames: sim {} draws no frames; accepted: {}", a.config.sim,
                                 fmt::join(accepted, ", ")));
  }
  if (!a.density_dir.empty()) throw UsageError("--frames: cannot be combined with --density-png");
  sim.frame_every->set(a.config, steps_per_frame(a, *sim.frame_every));
}

// `name` in folder `dir`, with one separator whether or not `dir` ends with one.
std::string in_folder(const std::string& dir, const std::string& name) {
  return (std::filesystem::path(dir) / name).string();
}

std::string frame_png(const RunArgs& a, uint32_t phase) {
  return in_folder(a.frames_dir, fmt::format("frame_{:03}.png", phase));
}

std::string frames_gif(const RunArgs& a) {
  return in_folder(a.frames_dir, a.config.sim + ".gif");
}

std::string density_png(const RunArgs& a, uint32_t phase) {
  return in_folder(a.density_dir, fmt::format("density_phase_{}.png", phase));
}

// Each phase end as DIR/frame_NNN.png and a frame of `animation`.
RunOptions frame_options(const RunArgs& a, const RunSpec& spec, GifAnimation& animation) {
  RunOptions options;
  const uint32_t frames = spec.plan().count;
  for (uint32_t k = 0; k < frames; ++k)
    options.snapshot_phases.push_back(k);
  options.on_snapshot = [&a, &animation](uint32_t phase, const ParticleSet& ps) {
    const Image picture = *ps.picture();
    write_png(frame_png(a, phase), picture);
    animation.add(picture);
  };
  return options;
}

// The phases --density-phases names (every phase if none), checked against the run.
std::vector<uint32_t> snapshot_phases(const RunArgs& a, const RunSpec& spec) {
  const SimInfo& sim = *spec.sim;
  if (!sim.has_picture) {
    std::vector<std::string> drawn;
    for (const SimInfo& s : all_sims()) {
      if (s.has_picture) drawn.push_back(s.name);
    }
    throw UsageError(fmt::format("--density-png: sim {} draws no picture; accepted for: {}",
                                 sim.name, fmt::join(drawn, ", ")));
  }
  const uint32_t phases = spec.plan().count;
  std::vector<uint32_t> out;
  if (a.density_phases.empty()) {
    for (uint32_t k = 0; k < phases; ++k)
      out.push_back(k);
    return out;
  }
  for (const std::string& item : split(a.density_phases, ','))
    out.push_back(static_cast<uint32_t>(parse_whole("--density-phases", item, 0, phases - 1)));
  return out;
}

void add_run_options(CLI::App& cmd, RunArgs& a) {
  cmd.add_option("--sim", a.config.sim, "simulation (schedbench list)")->required();
  cmd.add_option("--scheduler", a.config.scheduler, "scheduler (schedbench list)")->required();
  add_parameter_options(cmd, a);
  cmd.add_option(
         "--json", a.json_path,
         "write the result as JSON to FILE (atomically; an existing FILE needs --overwrite)")
      ->check(output_file());
  cmd.add_option("--average-from", a.average_from,
                 "average the sim's observables (air: transport coefficients) over phases from "
                 "this one (default: the second half), each with its standard error")
      ->check(CLI::Range(0u, 1000000u).description(""))
      ->type_name("WHOLE:0..1000000");
  cmd.add_option(
         "--density-png", a.density_dir,
         "write the sim's picture at the end of each phase as DIR/density_phase_K.png (pic: "
         "particles per cell; air: electrons projected on x-z; toy: the particles)")
      ->check(output_dir());
  cmd.add_option("--density-phases", a.density_phases,
                 "phases (poisson steps, from 0) to draw, comma-separated (default: all)");
  cmd.add_option("--frames", a.frames_dir,
                 "toy: draw the particles every --frame-every steps as DIR/frame_NNN.png and "
                 "DIR/toy.gif")
      ->check(output_dir());
  cmd.add_flag("--overwrite", a.overwrite,
               "replace output files that exist (without it, an existing one is refused)");
  cmd.add_option("--progress", a.progress,
                 "seconds between lines on stderr of how far the run is and the time it has "
                 "left (decimal; default 30; 0: none)");
}

// --progress's seconds, or a UsageError naming what it accepts.
double progress_seconds(const std::string& text) {
  const std::optional<double> s = parse_decimal(text);
  if (!s || *s < 0 || *s > kMaxProgressS) {
    throw UsageError(fmt::format(
        "--progress: '{}' is not a number of seconds from 0 to {}, written in decimal; accepted: "
        "0 (no progress lines) or the seconds between two",
        printable(text), kMaxProgressS));
  }
  return *s;
}

// Each chosen phase end as DIR/density_phase_K.png.
RunOptions density_options(const RunArgs& a, const RunSpec& spec) {
  RunOptions options;
  options.snapshot_phases = snapshot_phases(a, spec);
  options.on_snapshot = [&a](uint32_t phase, const ParticleSet& ps) {
    write_png(density_png(a, phase), *ps.picture());
    fmt::print("  wrote           {}\n", density_png(a, phase));
  };
  return options;
}

// Every file the run will write, before it starts: each must be a new name, or a regular file
// that --overwrite lets it replace.
void check_run_outputs(const RunArgs& a, const RunOptions& options) {
  const bool refuse_existing = !a.overwrite;
  if (!a.json_path.empty()) check_output_file("--json", a.json_path, refuse_existing);
  if (!a.frames_dir.empty()) {
    for (const uint32_t phase : options.snapshot_phases)
      check_output_file("--frames", frame_png(a, phase), refuse_existing);
    check_output_file("--frames", frames_gif(a), refuse_existing);
  }
  if (!a.density_dir.empty()) {
    for (const uint32_t phase : options.snapshot_phases)
      check_output_file("--density-png", density_png(a, phase), refuse_existing);
  }
}

// What is about to run, in one line: a long run says what it is before it goes quiet.
std::string start_banner(const RunConfig& c, const nlohmann::json& config) {
  std::vector<std::string> values;
  for (const auto& [key, value] : config.items()) {
    // What was not given and has no default is not part of the run's description.
    if (key != "sim" && key != "scheduler" && !value.is_null())
      values.push_back(key + " " + shown_value(value));
  }
  return fmt::format("running {} with {}: {}\n", c.sim, c.scheduler, fmt::join(values, ", "));
}

// The run's parameters and outputs checked, its setup built and its results file locked, on this
// rank; the run's spec.
RunSpec start_run(RunArgs& a, RunOptions& options, GifAnimation& animation,
                  std::optional<ResultsLock>& lock) {
  const std::vector<std::string> given = apply_parameters(a);
  a.progress_s = progress_seconds(a.progress);
  // Under a launcher the run takes its ranks; a --ranks given must be their count.
  if (std::find(given.begin(), given.end(), every_run::ranks().key) == given.end()) {
    a.config.ranks = static_cast<uint32_t>(ranks::world().size());
  } else {
    ranks::check_rank_count(a.config.ranks, ranks::world());
  }
  check_parameters(a.config, given);
  plan_frames(a, find_sim(a.config.sim));
  RunSpec spec = resolve(a.config);  // the sim's checks, its setup built once
  const RunOwners owners{*spec.sim, *spec.scheduler};
  const uint32_t phases = spec.plan().count;
  if (a.average_from && *a.average_from >= phases) {
    throw UsageError(
        fmt::format("--average-from: phase {} is past the run's last; accepted: 0 to {}",
                    *a.average_from, phases - 1));
  }
  if (!a.density_dir.empty()) {
    options = density_options(a, spec);
  } else if (!a.density_phases.empty()) {
    throw UsageError("--density-phases: needs --density-png DIR");
  }
  if (!a.frames_dir.empty()) options = frame_options(a, spec, animation);
  // One writer per results file: a run or sweep writing the same --json is refused until this
  // run has written it (on several ranks rank 0 alone writes).
  if (ranks::world().rank() == 0 && !a.json_path.empty()) lock.emplace(a.json_path);
  check_run_outputs(a, options);
  const SchedulerEntry& entry = *spec.scheduler;
  for (const Parameter& p : parameters()) {
    if (!p.refused_where_unread && p.scope != ParameterScope::kEverySim &&
        std::count(given.begin(), given.end(), p.key) > 0 && !applies(p, owners)) {
      fmt::print(stderr, "note: {} does not use {}\n", entry.name, p.flag);
    }
  }
  if (entry.kind != SchedulerKind::kCpu && !cuda_device_present()) {
    throw RunError(fmt::format("{} needs a CUDA device and none is present", entry.name));
  }
  return spec;
}

// The run, on every rank. A failure that the drivers' agreements did not carry to every rank (one
// between two of them, docs/design.md §10) ends every rank at once, reported in one line: the
// others may be waiting for this one in a collective.
RunResult run_on_every_rank(const RunSpec& spec, const RunOptions& options) {
  try {
    return run(spec, options);
  } catch (const ranks::RankFailure&) {
    throw;
  } catch (const ranks::PeerFailure&) {
    throw;
  } catch (...) {
    if (ranks::Communicator* others = ranks::joined_ranks(); others != nullptr) {
      others->abort(report(g_run_errors, "schedbench", std::current_exception()));
    }
    throw;
  }
}

int run_command(RunArgs& a) {
  RunOptions options;
  GifAnimation animation(kFrameDelayCs);
  std::optional<ResultsLock> lock;
  // Every rank starts the run and then they agree on whether any failed (docs/design.md §10): a
  // rank that fails alone (a file only it cannot read, rank 0's lock) would otherwise leave the
  // others waiting in the run's first collective.
  std::optional<RunSpec> started;
  std::exception_ptr failed;
  try {
    started.emplace(start_run(a, options, animation, lock));
  } catch (...) {
    failed = std::current_exception();
  }
  ranks::agree_on_failure(failed, ranks::world(), failed ? ending_of(failed).exit_code : 0);
  const RunSpec& spec = *started;
  std::optional<LockRemovedOnStop> tidy;
  if (lock) tidy.emplace(*lock);
  const RunOwners owners{*spec.sim, *spec.scheduler};
  const nlohmann::json config = config_json(spec.config, owners);
  fmt::print("{}", start_banner(spec.config, config));
  std::fflush(stdout);
  std::optional<RunProgress> progress;
  if (a.progress_s > 0) {
    progress.emplace(spec.plan().count, a.progress_s);
    options.on_progress = [&progress](uint32_t done, uint64_t alive) { progress->at(done, alive); };
  }
  const RunResult r = run_on_every_rank(spec, options);
  fmt::print("{}", run_summary(spec.config, r, a.average_from));
  if (!a.frames_dir.empty()) {
    animation.write(frames_gif(a));
    fmt::print("  wrote           {} frames {}/frame_*.png, {}\n", animation.frames(), a.frames_dir,
               frames_gif(a));
  }
  if (lock) {  // rank 0, with --json
    write_file_atomically(a.json_path,
                          run_json(config, spec.config, r, a.average_from).dump(2) + "\n");
    fmt::print("  wrote           {}\n", a.json_path);
  }
  return 0;
}

struct RecommendArgs : WorkloadArgs {
  std::string schedulers;                           // comma-separated; empty: the default set
  std::string block_sizes = "64,128,256,512,1024";  // the block-size axis
  std::string budget;                               // seconds
  std::string out_path, runner;
  bool overwrite = false;
  bool all_policies = false;
};

constexpr double kMaxBudgetS = 1e6;  // eleven days: beyond any sensible search

void add_recommend_options(CLI::App& cmd, RecommendArgs& a) {
  cmd.add_option("--sim", a.config.sim, "simulation (schedbench list)")->required();
  cmd.add_option("--budget", a.budget,
                 "seconds to spend measuring (decimal, above 0); candidates that do not fit are "
                 "left unmeasured")
      ->required();
  cmd.add_option("--schedulers", a.schedulers,
                 "candidate schedulers, comma-separated (default: every GPU scheduler, or every "
                 "CPU one where there is no GPU)");
  cmd.add_option("--block-sizes", a.block_sizes,
                 "block sizes to try on the GPU schedulers, comma-separated (default "
                 "64,128,256,512,1024)");
  cmd.add_flag("--all-policies", a.all_policies,
               "also try every tuning policy of the schedulers that have them (schedbench list); "
               "without it, each runs its default");
  // The block size is an axis here (--block-sizes); the policy, --all-policies.
  add_parameter_options(cmd, a, {launch_knobs::block_size().key, kPolicyKey});
  cmd.add_option("--out", a.out_path,
                 "results file (default results/<device>/recommend-<sim>.json; results/README.md)")
      ->check(output_file());
  cmd.add_flag("--overwrite", a.overwrite, "replace the results file if it exists");
  cmd.add_option("--runner", a.runner,
                 "command that runs one measurement, given REQUEST RESULT (default: "
                 "schedbench-point)");
}

int recommend_command(RecommendArgs& a) {
  refuse_launched("recommend");
  RecommendRequest r;
  r.given = apply_parameters(a);
  r.workload = a.config;
  const std::optional<double> budget = parse_decimal(a.budget);
  if (!budget || *budget <= 0 || *budget > kMaxBudgetS) {
    throw UsageError(fmt::format(
        "--budget: '{}' is not a number of seconds above 0 and at most {}, written in decimal",
        printable(a.budget), kMaxBudgetS));
  }
  r.budget_s = *budget;
  r.schedulers = split(a.schedulers, ',');
  r.axes.push_back({launch_knobs::block_size().key, "--block-sizes", split(a.block_sizes, ',')});
  r.all_policies = a.all_policies;
  r.out_path = a.out_path;
  r.overwrite = a.overwrite;
  r.have_gpu = cuda_device_present();
  r.runner = point_runner(a.runner);
  r.program = std::filesystem::read_symlink("/proc/self/exe").string();
  return run_recommend(r);
}

struct TableArgs : WorkloadArgs {
  std::string out_path;
};

// The sims' own parameters as options: what a table can depend on.
void add_table_options(CLI::App& cmd, TableArgs& a) {
  cmd.add_option("--sim", a.config.sim, "simulation whose table to write (pic)")->required();
  cmd.add_option("--out", a.out_path, "file to write (replaced if it exists)")
      ->required()
      ->check(output_file());
  std::vector<std::string> except;
  for (const Parameter& p : parameters()) {
    if (p.scope != ParameterScope::kSim) except.push_back(p.key);
  }
  add_parameter_options(cmd, a, except);
}

int table_command(TableArgs& a) {
  const SimInfo& sim = find_sim(a.config.sim);
  if (sim.table == nullptr) {
    std::vector<std::string> accepted;
    for (const SimInfo& s : all_sims()) {
      if (s.table != nullptr) accepted.push_back(s.name);
    }
    throw UsageError(fmt::format("--sim: {} reads no table to write; accepted: {}", sim.name,
                                 fmt::join(accepted, ", ")));
  }
  for (const std::string& key : apply_parameters(a)) {
    if (!reads(sim, key)) {
      throw UsageError(
          fmt::format("{}: sim {} does not read it", find_parameter(key)->flag, sim.name));
    }
  }
  const SimTable table = sim.table(a.config);
  write_file_atomically(a.out_path, table.text);
  fmt::print("wrote {} ({})\n", a.out_path, table.what);
  return 0;
}

std::vector<std::string> command_names(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
    names.push_back(command->get_name());
  return names;
}

// CLI11 calls an unknown command an argument "not expected"; name it as what it was meant to be.
void check_command_name(CLI::App& app, int argc, char** argv) {
  const std::vector<std::string> names = command_names(app);
  if (argc < 2) {
    throw UsageError(fmt::format("name a command; accepted: {} (schedbench help explains them)",
                                 fmt::join(names, ", ")));
  }
  const std::string first = argv[1];
  if (first.empty() || (first[0] != '-' && std::count(names.begin(), names.end(), first) == 0)) {
    throw UsageError(
        fmt::format("'{}' is not a command; accepted: {}", first, fmt::join(names, ", ")));
  }
}

// Edits (insertions, deletions, substitutions) that turn `a` into `b`.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// A long option the command does not have, before CLI11 reports something else (a required
// option "missing" where it was misspelt): one line naming it and the nearest option there is.
void check_option_names(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return;
  CLI::App* command = app.get_subcommand(argv[1]);
  std::vector<std::string> known = {"--help"};
  for (const CLI::Option* o : command->get_options()) {
    for (const std::string& name : o->get_lnames())
      known.push_back("--" + name);
  }
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") return;  // what follows is not options
    if (arg.rfind("--", 0) != 0) continue;
    const std::string name = arg.substr(0, arg.find('='));
    if (std::count(known.begin(), known.end(), name) > 0) continue;
    const auto nearest = std::min_element(known.begin(), known.end(),
                                          [&](const std::string& x, const std::string& y) {
                                            return edit_distance(name, x) < edit_distance(name, y);
                                          });
    const bool close = edit_distance(name, *nearest) <= std::max<size_t>(2, name.size() / 4);
    throw UsageError(fmt::format("{}: not an option of {}; {}", printable(name), argv[1],
                                 close ? fmt::format("did you mean {}?", *nearest)
                                       : fmt::format("schedbench help {} lists them", argv[1])));
  }
}

// `schedbench help [COMMAND]`: the same text as --help. (App::help() would describe the
// command selected, which is `help` itself.)
int help_command(CLI::App& app, const std::string& topic) {
  if (topic.empty()) {
    fmt::print("{}",
               app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal));
    return 0;
  }
  const std::vector<std::string> names = command_names(app);
  if (std::count(names.begin(), names.end(), topic) == 0) {
    throw UsageError(
        fmt::format("help: '{}' is not a command; accepted: {}", topic, fmt::join(names, ", ")));
  }
  fmt::print("{}", app.get_subcommand(topic)->help(app.get_name()));
  return 0;
}

}  // namespace

namespace {

// On more than one rank (an MPI launch), rank 0 speaks for the run: the others print only the
// errors of their own runs, and every rank must have been given the same arguments.
void join_ranks(int argc, char** argv) {
  ranks::Communicator& comm = ranks::world();
  if (comm.size() == 1) return;
  uint64_t h = 0;
  for (int i = 0; i < argc; ++i) {
    for (const char* c = argv[i]; *c != '\0'; ++c)
      h = mix64(h ^ static_cast<unsigned char>(*c));
    h = mix64(h ^ 0x100);  // between arguments
  }
  const std::vector<uint64_t> all = comm.gather({h});
  if (comm.rank() != 0) {
    g_run_errors = fdopen(dup(fileno(stderr)), "w");
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
  }
  for (size_t r = 1; r < all.size(); ++r) {
    if (all[r] != all[0]) {
      throw UsageError(fmt::format(
          "rank {} of {} was given other arguments than rank 0; accepted: the same command on "
          "every rank",
          r, all.size()));
    }
  }
}

}  // namespace

void print_error(const char* program, const char* kind, const char* what) {
  print_to(stderr, program, kind, what);
}

int exit_code_of(const char* program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const ranks::RankFailure&) {
    return report(g_run_errors, program, std::current_exception());
  } catch (...) {
    return report(stderr, program, std::current_exception());
  }
}

int cli_main(int argc, char** argv) {
  fail_writes_past_size_limit();
  CLI::App app(kAbout, "schedbench");
  app.require_subcommand(1);
  app.set_version_flag("--version", fmt::format("schedbench {}", kGitCommit),
                       "print the commit this schedbench was built from");
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // last one wins
  CLI::App* list =
      app.add_subcommand("list",
                         "print every sim and scheduler and the schedulers' policies; list NAME: "
                         "one of them whole");
  bool list_json = false;
  std::string list_name;
  list->add_option("name", list_name, "a sim or scheduler: its whole entry");
  list->add_flag("--json", list_json,
                 "print the catalog as JSON instead: sims, schedulers with their policies, and "
                 "every parameter with its flag, meaning, plot label and role");

  CLI::App* run =
      app.add_subcommand("run", "run one simulation and print its counts, time and digest");
  RunArgs run_args;
  add_run_options(*run, run_args);

  BatchArgs batch;
  add_batch_commands(app, batch);

  CLI::App* recommend = app.add_subcommand(
      "recommend",
      "measure the candidate schedulers and block sizes on one workload within a time budget "
      "(a screening, then successive halving of the leaders); print the ranking, how sure it is "
      "and the winner's run command, and write a results file");
  recommend->footer(
      "Every candidate runs in one point process (a crash ends it; the next starts another).\n"
      "The screening gives each a warm-up and one timed run, in order, a run past 4x the best\n"
      "so far stopped by its watchdog (GPU); the leaders (within 1.3x the best, at most 16) then\n"
      "go through successive halving: 3 repetitions after a warm-up, each round keeping the\n"
      "faster half by median and doubling the repetitions, until one remains or the budget is\n"
      "spent; the budget left re-measures the last two while they are within noise. A candidate\n"
      "that fails (a crash, a run error) is dropped and named; one the budget did not reach is\n"
      "listed as not measured. On a GPU, bound (the yardstick, never a candidate) is then\n"
      "measured at the winner's configuration if the budget has room, and the table shows\n"
      "efficiencies against it. The verdict compares the winner with the runner-up: separated\n"
      "(every repetition faster), likely (its median lower in >= 95% of bootstrap resamples) or\n"
      "within noise. Example:\n"
      "  schedbench recommend --sim mvp --init-n 1e6 --steps 1000 --budget 300\n"
      "Exit codes: 0 a winner, 2 bad input, 3 no candidate measured, 130 interrupted.");
  RecommendArgs recommend_args;
  add_recommend_options(*recommend, recommend_args);

  CLI::App* table = app.add_subcommand(
      "table",
      "write the table a run of the sim reads as a file it reads back: pic's cross sections (the "
      "seed's synthetic table, a constant --collision-chance, or --cross-section FILE checked)");
  TableArgs table_args;
  add_table_options(*table, table_args);

  CLI::App* help = app.add_subcommand("help", "print this help, or a command's: help COMMAND");
  std::string help_topic;
  help->add_option("command", help_topic, "the command to explain");

  std::set<const CLI::Option*> parameter_options;  // each run parameter's check refuses ""
  for (const WorkloadArgs* w :
       std::initializer_list<const WorkloadArgs*>{&run_args, &recommend_args, &table_args}) {
    for (const auto& [key, option] : w->options)
      parameter_options.insert(option);
  }
  refuse_empty_values(app, parameter_options);
  try {
    join_ranks(argc, argv);
    check_command_name(app, argc, argv);
    check_option_names(app, argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    print_error("schedbench", "error", e.what());
    return 2;
  } catch (const UsageError& e) {
    print_error("schedbench", "error", e.what());
    return 2;
  }

  return exit_code_of("schedbench", [&] {
    if (help->parsed()) return help_command(app, help_topic);
    if (list->parsed()) return list_command(list_json, list_name);
    if (run->parsed()) return run_command(run_args);
    if (recommend->parsed()) return recommend_command(recommend_args);
    if (table->parsed()) return table_command(table_args);
    int code = 0;
    if (run_batch_command(batch, code)) return code;
    return 1;
  });
}

}  // namespace sb
