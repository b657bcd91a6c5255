#include "harness/job/job.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "core/decimal.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/values.hpp"
#include "harness/io/json_file.hpp"
#include "harness/job/job_form.hpp"
#include "harness/job/parameters.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

// The header's keys, the sampling and device control keys, and the points' keys.
std::vector<std::string> job_keys() {
  std::vector<std::string> keys = {
      "name", "description", "figures", "estimated_s", "sims", "schedulers", "fallback_schedulers"};
  keys.insert(keys.end(), kSamplingKeys.begin(), kSamplingKeys.end());
  keys.insert(keys.end(), kDeviceControlKeys.begin(), kDeviceControlKeys.end());
  keys.emplace_back("axes");
  return keys;
}

// One axis of a sub-sweep: its key, its parameter, and the text of each value with where it stands
// in the file ("axes.block_size[2]").
struct Axis {
  std::string key;
  const Parameter* parameter;  // the key's row, or for an old key, the row it was renamed to
  std::vector<std::pair<std::string, std::string>> values;  // (where, text)
};

// Whether an axis applies to the points of `base`: by the row its key means for the base's sim and
// scheduler (an old key, for those that renamed it only).
bool axis_applies(const Axis& axis, const RunConfig& base) {
  const Parameter* p = parameter_for(axis.key, base);
  return p != nullptr && applies(*p, base);
}

// A number or a switch is written as one, as the job's other keys are: a string that holds one
// ("100", "true") where the parameter's values are numbers or switches is refused, and so is a
// number or a range where they are switches (1 is no switch, although `--skip-spawned 1` reads
// as one on the command line). Other strings meet the parameter's own check: a word such as
// blocks_per_sm's "fill" is a value.
void refuse_mistyped_values(const std::string& path, const std::string& where, const Json& value,
                            const Parameter& p) {
  const ValueKind kind = p.declarations.front().second->kind;
  if (kind != ValueKind::kWhole && kind != ValueKind::kReal && kind != ValueKind::kSwitch) return;
  const bool is_switch = kind == ValueKind::kSwitch;
  const auto check = [&](const Json& v, const std::string& at) {
    const std::string text = v.is_string() ? v.get<std::string>() : "";
    const bool quoted = v.is_string() && (parse_decimal(text) || text == "true" || text == "false");
    const bool numeric = is_switch && (v.is_number() || v.is_object());
    if (!quoted && !numeric) return;
    job_error(path, at,
              fmt::format("{} is {}; accepted: {}", shown_json(v),
                          quoted          ? "a string"
                          : v.is_object() ? "a range"
                                          : "a number",
                          is_switch ? "true or false" : "a number"));
  };
  if (!value.is_array()) return check(value, where);
  for (size_t i = 0; i < value.size(); ++i)
    check(value[i], fmt::format("{}[{}]", where, i));
}

// The sims and schedulers a job names (its fallback schedulers too), as runs that check its axes.
using JobOwners = std::vector<RunConfig>;

// The axes of one sub-sweep, every value checked by each of the job's sims and schedulers that
// reads its parameter, whether or not a point of them runs here (a GPU scheduler's knob on a
// machine without a GPU), so that a refusal names the owner whose values it breaks; an axis that
// none of them reads is checked all the same, by every owner that declares it (check_unread).
std::vector<Axis> read_axes(const std::string& path, const std::string& where, const Json& axes,
                            uint64_t max_points, const JobOwners& owners) {
  std::vector<std::string> keys;
  for (const Parameter& q : parameters())
    keys.push_back(q.key);
  const auto renamed = renamed_keys();
  for (const auto& [old_key, q] : renamed)
    keys.push_back(old_key);
  std::vector<Axis> out;
  for (AxisText& text : read_axis_texts(path, where, axes, keys, max_points)) {
    const Parameter* p = find_parameter(text.key);
    for (const auto& [old_key, q] : renamed) {
      if (p == nullptr && old_key == text.key) p = q;
    }
    refuse_mistyped_values(path, where + "." + text.key, axes.at(text.key), *p);
    Axis axis{text.key, p, std::move(text.values)};
    bool read = false;
    for (const RunConfig& owner : owners) {
      const Parameter* q = parameter_for(axis.key, owner);
      if (q == nullptr || !applies(*q, owner)) continue;
      read = true;
      RunConfig scratch = owner;
      for (const auto& [at, value] : axis.values)
        q->set(scratch, printable(path) + ": " + at, value);
    }
    if (!read) {
      RunConfig scratch = owners.front();
      for (const auto& [at, value] : axis.values)
        p->set(scratch, printable(path) + ": " + at, value);
    }
    out.push_back(std::move(axis));
  }
  return out;
}

// How many points one sub-sweep gives for one sim and scheduler: the product of the sizes of the
// axes that apply to them.
uint64_t point_count(const std::vector<Axis>& axes, const RunConfig& base) {
  uint64_t n = 1;
  for (const Axis& axis : axes) {
    if (axis_applies(axis, base)) n = saturating_product(n, axis.values.size());
  }
  return n;
}

// Whether the sim's own check reads `p`: the sim's parameters, and --batch, which the setup of a
// sim whose grid work does not stream refuses (check_sim, harness/job/parameters.hpp).
bool read_by_sim_check(const Parameter& p) {
  return p.scope == ParameterScope::kSim || p.key == launch_knobs::batch().key;
}

// The points whose configurations the sim's own check (which can be slow) must see: one for each
// distinct set of values of the parameters that check reads (read_by_sim_check).
struct SimChecks {
  std::set<std::string> seen;                          // sim and its parameters' values
  std::vector<std::pair<std::string, size_t>> points;  // (sub-sweep, index of the point)
};

// The points of one sub-sweep for one sim and scheduler, each checked but for the sim's own
// check, which `sim_checks` collects.
void expand_axes(const std::string& path, const std::string& where, const std::vector<Axis>& axes,
                 const RunConfig& base, SimChecks& sim_checks, std::vector<JobPoint>& out) {
  // An axis multiplies only the points it applies to.
  std::vector<const Axis*> live;
  for (const Axis& axis : axes) {
    if (axis_applies(axis, base)) live.push_back(&axis);
  }
  std::vector<size_t> sizes;
  for (const Axis* axis : live)
    sizes.push_back(axis->values.size());
  for_each_combination(sizes, [&](const std::vector<size_t>& at) {
    JobPoint point{base, {}, {}};
    std::string sim_key = base.sim;
    for (size_t i = 0; i < live.size(); ++i) {
      const auto& [value_where, text] = live[i]->values[at[i]];
      const Parameter& p =
          *set_parameter(live[i]->key, point.config, printable(path) + ": " + value_where, text);
      point.given.push_back(p.key);
      if (read_by_sim_check(p)) sim_key += "\n" + p.key + "=" + text;
    }
    try {
      check_parameters(point.config, point.given);
    } catch (const UsageError& e) {
      job_error(path, where, e.what());
    }
    if (sim_checks.seen.insert(sim_key).second) sim_checks.points.emplace_back(where, out.size());
    out.push_back(std::move(point));
  });
}

// The names at `key`, each one `find` knows (find_sim, find_scheduler).
template <class Find>
std::vector<std::string> known_names(const std::string& path, const Json& doc,
                                     const std::string& key, Find find) {
  const std::vector<std::string> names = job_string_list(path, doc, key);
  for (const std::string& name : names) {
    try {
      find(name);
    } catch (const UsageError& e) {
      job_error(path, key, e.what());
    }
  }
  return names;
}

// Each sim with each scheduler that can run here; why the others were left out into `skipped`.
std::vector<RunConfig> runnable(const std::vector<std::string>& sims,
                                const std::vector<std::string>& schedulers, bool have_gpu,
                                std::vector<std::string>& skipped) {
  std::vector<RunConfig> out;
  for (const std::string& sim : sims) {
    for (const std::string& scheduler : schedulers) {
      if (find_scheduler(scheduler).kind != SchedulerKind::kCpu && !have_gpu) {
        const std::string why = fmt::format("{}: skipped, no CUDA device", scheduler);
        if (std::find(skipped.begin(), skipped.end(), why) == skipped.end()) {
          skipped.push_back(why);
        }
        continue;
      }
      RunConfig base;
      base.sim = sim;
      base.scheduler = scheduler;
      out.push_back(base);
    }
  }
  return out;
}

}  // namespace

void label_points(std::vector<JobPoint>& points) {
  std::vector<nlohmann::json> configs;
  for (const JobPoint& p : points)
    configs.push_back(config_with_unset(p.config));
  const std::vector<std::string> labels = varying_labels(configs, {"sim", "scheduler"});
  for (size_t i = 0; i < points.size(); ++i)
    points[i].label = labels[i];
}

std::pair<std::string, Json> parse_axis_edit(const std::string& option, const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw UsageError(fmt::format(
        "{}: '{}' is not KEY=VALUES; accepted e.g. block_size=32,64,128 or "
        "'init_n={{\"log\": [1e3, 1e6], \"points\": 4}}' or scheduler=dynamic-warp,naive",
        option, printable(text)));
  }
  const std::string key = text.substr(0, eq), values = text.substr(eq + 1);
  if (key != "sim" && key != "scheduler" && find_parameter(key) == nullptr) {
    throw UsageError(fmt::format(
        "{}: '{}' is not a parameter; accepted: sim, scheduler or a parameter `schedbench list` "
        "names",
        option, printable(key)));
  }
  const auto word = [](const std::string& w) {
    const Json v = Json::parse(w, nullptr, false);
    return v.is_number() || v.is_boolean() ? v : Json(w);
  };
  if (values.front() == '[' || values.front() == '{')
    return {key, parse_json_text(values, option + ": " + key)};
  const std::vector<std::string> words = split(values, ',');
  if (words.size() == 1) return {key, word(words.front())};
  Json list = Json::array();
  for (const std::string& w : words)
    list.push_back(word(w));
  return {key, list};
}

namespace {

// `doc` with `edits`' axes: sims and schedulers (the fallback dropped: the user chose), or the
// axis in every sub-sweep.
Json edited(Json doc, const JobEdits& edits) {
  for (const auto& [key, value] : edits.axes) {
    const Json list = value.is_array() ? value : Json::array({value});
    if (key == "sim") {
      doc["sims"] = list;
    } else if (key == "scheduler") {
      doc["schedulers"] = list;
      doc.erase("fallback_schedulers");
    } else if (doc.contains("axes") && doc["axes"].is_array()) {
      for (Json& sweep : doc["axes"])
        sweep[key] = value;
    } else if (doc.contains("axes")) {
      doc["axes"][key] = value;
    }
  }
  return doc;
}

// A filter as a regular expression whose compilation and matches take bounded stack and time:
// libstdc++ compiles and matches by recursion, so a long pattern or a counted repetition, which
// makes as many states as it counts (`(a?){50000}`), overflows the stack, and its default
// matcher backtracks, in time exponential in the label's length. Filters are short (labels name
// values), labels hold no braces, and the polynomial matcher (a libstdc++ option: no
// back-references) keeps the time within labels times states.
std::regex filter_regex(const std::string& f) {
  const auto refuse = [&](const std::string& why) {
    return UsageError(fmt::format(
        "--filter: '{}' {}; accepted: a regular expression of at most {} characters without "
        "counted repetitions ({{n}}) or back-references",
        printable(f), why, kMaxFilterChars));
  };
  if (f.size() > kMaxFilterChars) throw refuse(fmt::format("has {} characters", f.size()));
  if (f.find('{') != std::string::npos) throw refuse("has a counted repetition");
  try {
    return std::regex(f, std::regex::ECMAScript | std::regex_constants::__polynomial);
  } catch (const std::regex_error& e) {
    throw refuse(fmt::format("is not a regular expression ({})", e.what()));
  }
}

// The points whose label matches every filter; UsageError where none does.
std::vector<JobPoint> filtered(const std::string& path, std::vector<JobPoint> points,
                               const std::vector<std::string>& filters) {
  for (const std::string& f : filters) {
    const std::regex re = filter_regex(f);
    points.erase(std::remove_if(points.begin(), points.end(),
                                [&](const JobPoint& p) { return !std::regex_search(p.label, re); }),
                 points.end());
    if (points.empty()) {
      throw UsageError(fmt::format(
          "--filter: '{}' leaves no point of {}; accepted: a regular expression found in some "
          "point's label (sweep --list prints them)",
          printable(f), path));
    }
  }
  return points;
}

// The job `doc` with `edits` applied; `path` names it in errors.
Job job_of(const std::string& path, const Json& job_doc, bool have_gpu, uint64_t max_points,
           const JobEdits& edits) {
  const Json doc = edited(job_doc, edits);
  Job job;
  if (doc.is_object() && doc.contains("program")) {
    job_error(path, "program",
              fmt::format("{} runs this job, not schedbench (jobs/README.md); accepted here: a job "
                          "without \"program\"",
                          shown_json(doc.at("program"))));
  }
  read_job_header(path, doc, job_keys(), {"sims", "schedulers", "axes"}, job);
  const std::vector<std::string> sims = known_names(path, doc, "sims", find_sim);
  std::vector<std::string> schedulers = known_names(path, doc, "schedulers", find_scheduler);
  std::vector<std::string> named_schedulers = schedulers;
  if (doc.contains("fallback_schedulers")) {
    const std::vector<std::string> fallback =
        known_names(path, doc, "fallback_schedulers", find_scheduler);
    named_schedulers.insert(named_schedulers.end(), fallback.begin(), fallback.end());
    if (!have_gpu) {
      job.skipped.push_back(fmt::format("no CUDA device: running fallback_schedulers instead of {}",
                                        fmt::join(schedulers, ", ")));
      schedulers = fallback;
    }
  }
  JobOwners owners;
  for (const std::string& sim : sims) {
    for (const std::string& scheduler : named_schedulers) {
      RunConfig c;
      c.sim = sim;
      c.scheduler = scheduler;
      owners.push_back(c);
    }
  }
  std::vector<std::pair<std::string, std::vector<Axis>>> sweeps;
  for (const auto& [where, axes] : sub_sweeps(path, doc.at("axes")))
    sweeps.emplace_back(where, read_axes(path, where, *axes, max_points, owners));
  const std::vector<RunConfig> bases = runnable(sims, schedulers, have_gpu, job.skipped);

  // How many points there are, before any is built.
  uint64_t count = 0;
  for (const RunConfig& base : bases) {
    for (const auto& sweep : sweeps)
      count = saturating_sum(count, point_count(sweep.second, base));
  }
  check_point_count(path, count, max_points);

  std::vector<JobPoint> points;
  points.reserve(count);
  SimChecks sim_checks;
  for (const RunConfig& base : bases) {
    for (const auto& [where, sweep] : sweeps)
      expand_axes(path, where, sweep, base, sim_checks, points);
  }
  for (const auto& [where, i] : sim_checks.points) {
    try {
      check_sim(points[i].config);
    } catch (const UsageError& e) {
      job_error(path, where, e.what());
    }
  }
  label_points(points);
  job.points = distinct_points(std::move(points));
  if (job.points.empty()) job_error(path, "schedulers", "no point can run here");
  job.points = filtered(path, std::move(job.points), edits.filters);
  return job;
}

}  // namespace

Job load_job(const std::string& path, bool have_gpu, uint64_t max_points, const JobEdits& edits) {
  return job_of(path, read_json_file(path, "job file"), have_gpu, max_points, edits);
}

Job command_line_job(bool have_gpu, uint64_t max_points, const JobEdits& edits) {
  std::vector<std::string> sims;
  bool schedulers = false;
  for (const auto& [key, value] : edits.axes) {
    if (key == "scheduler") schedulers = true;
    if (key != "sim") continue;
    sims.clear();
    for (const Json& v : value.is_array() ? value : Json::array({value}))
      sims.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  }
  if (sims.empty() || !schedulers) {
    throw UsageError(
        "sweep: no job file and no -a sim=... and -a scheduler=...; accepted: a job file, or "
        "-a sim=NAME[,NAME] and -a scheduler=NAME[,NAME] with the axes as more -a KEY=VALUES");
  }
  const Json doc = {{"name", "sweep-" + fmt::format("{}", fmt::join(sims, "-"))},
                    {"description", "a sweep of the command line's axes (schedbench sweep -a)"},
                    {"sims", Json::array()},
                    {"schedulers", Json::array()},
                    {"axes", Json::object()}};
  return job_of("the command line", doc, have_gpu, max_points, edits);
}

}  // namespace sb
