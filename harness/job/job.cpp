#include "harness/job/job.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "harness/io/json_file.hpp"
#include "harness/job/parameters.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

const std::vector<std::string> kJobKeys = {
    "name",       "description",         "figures",     "estimated_s", "sims",
    "schedulers", "fallback_schedulers", "repetitions", "warmup",      "axes"};

[[noreturn]] void bad(const std::string& path, const std::string& key, const std::string& why) {
  throw UsageError(fmt::format("{}: {}: {}", printable(path), key, why));
}

// A JSON value quoted in a message.
std::string shown(const Json& v) {
  return printable(v.dump());
}

std::vector<std::string> string_list(const std::string& path, const Json& job,
                                     const std::string& key) {
  const Json& v = job.at(key);
  if (!v.is_array() || v.empty()) bad(path, key, "must be a non-empty list of names");
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) bad(path, fmt::format("{}[{}]", key, i), shown(v[i]) + " is not a name");
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

// An axis value as the text a parameter's check reads.
std::string value_text(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  return fmt::format("{}", v.get<double>());
}

constexpr const char* kAxisForms =
    "accepted: a value, a list of values, {\"linear\": [first, last], \"step\": s} or "
    "{\"log\": [first, last], \"points\": k}";

// The text of a single value at `where`.
std::string single_value(const std::string& path, const std::string& where, const Json& v) {
  if (!v.is_primitive() || v.is_null())
    bad(path, where, shown(v) + " is not a value; " + kAxisForms);
  return value_text(v);
}

[[noreturn]] void too_many(const std::string& path, const std::string& where, double count,
                           uint64_t max_points) {
  bad(path, where,
      fmt::format("{:.0f} values; accepted: at most {} (--max-points raises it)", count,
                  max_points));
}

// One axis of a sub-sweep: its parameter, and the text of each value with where it stands in the
// file ("axes.block_size[2]").
struct Axis {
  const Parameter* parameter;
  std::vector<std::pair<std::string, std::string>> values;  // (where, text)
};

// "key": 5 | [v, ...] | {"linear": [a, b], "step": s} | {"log": [a, b], "points": k}. A range is
// counted before it is listed, and refused above `max_points` values: an axis has at least as
// many points as values wherever it applies. Log ranges between whole numbers give whole numbers.
std::vector<std::pair<std::string, std::string>> axis_values(const std::string& path,
                                                             const std::string& where,
                                                             const Json& v, uint64_t max_points) {
  std::vector<std::pair<std::string, std::string>> out;
  if (v.is_array()) {
    if (v.empty()) bad(path, where, "is an empty list");
    if (v.size() > max_points) too_many(path, where, static_cast<double>(v.size()), max_points);
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string at = fmt::format("{}[{}]", where, i);
      out.emplace_back(at, single_value(path, at, v[i]));
    }
    return out;
  }
  if (!v.is_object()) return {{where, single_value(path, where, v)}};
  const auto ends = [&](const char* kind) {
    const Json& e = v.at(kind);
    if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_number() ||
        e[0].get<double>() > e[1].get<double>()) {
      bad(path, fmt::format("{}.{}", where, kind),
          fmt::format("{} is not accepted; accepted: [first, last], two numbers, first <= last",
                      shown(e)));
    }
    return std::make_pair(e[0].get<double>(), e[1].get<double>());
  };
  if (v.size() == 2 && v.contains("linear") && v.contains("step")) {
    const auto [a, b] = ends("linear");
    const Json& s = v.at("step");
    if (!s.is_number() || s.get<double>() <= 0) {
      bad(path, where + ".step", shown(s) + " is not accepted; accepted: a number above 0");
    }
    const double step = s.get<double>();
    const double count = std::floor((b - a) / step + 1e-9) + 1;
    if (!(count <= static_cast<double>(max_points))) too_many(path, where, count, max_points);
    for (uint64_t i = 0; i < static_cast<uint64_t>(count); ++i)
      out.emplace_back(where, value_text(Json(a + static_cast<double>(i) * step)));
    return out;
  }
  if (v.size() == 2 && v.contains("log") && v.contains("points")) {
    const auto [a, b] = ends("log");
    if (a <= 0) bad(path, where + ".log", "first must be above 0");
    const Json& k = v.at("points");
    if (!k.is_number_integer() || k.get<double>() < 2) {
      bad(path, where + ".points",
          shown(k) + " is not accepted; accepted: a whole number of at least 2");
    }
    const double points = k.get<double>();
    if (points > static_cast<double>(max_points)) too_many(path, where, points, max_points);
    const bool whole = a == std::floor(a) && b == std::floor(b);
    for (uint64_t i = 0; i < static_cast<uint64_t>(points); ++i) {
      const double x = a * std::pow(b / a, static_cast<double>(i) / (points - 1));
      const bool fits = x < 9e18;  // llround's range
      const std::string text =
          whole && fits ? std::to_string(std::llround(x)) : value_text(Json(x));
      if (out.empty() || out.back().second != text) out.emplace_back(where, text);
    }
    return out;
  }
  bad(path, where, shown(v) + " is not accepted; " + kAxisForms);
}

// The axes of one sub-sweep, every value checked by its parameter whether or not the parameter
// applies to the job's sims and schedulers.
std::vector<Axis> read_axes(const std::string& path, const std::string& where, const Json& axes,
                            uint64_t max_points) {
  if (!axes.is_object()) {
    bad(path, where, shown(axes) + " is not accepted; accepted: an object of parameter: values");
  }
  std::vector<Axis> out;
  for (const auto& [key, value] : axes.items()) {
    const Parameter* p = find_parameter(key);
    if (p == nullptr) {
      std::vector<std::string> keys;
      for (const Parameter& q : parameters())
        keys.push_back(q.key);
      bad(path, where + "." + printable(key),
          fmt::format("unknown parameter; accepted: {}", fmt::join(keys, ", ")));
    }
    Axis axis{p, axis_values(path, where + "." + key, value, max_points)};
    RunConfig scratch;
    for (const auto& [at, text] : axis.values)
      p->set(scratch, printable(path) + ": " + at, text);
    out.push_back(std::move(axis));
  }
  return out;
}

// The text at `key`, or "" where the job leaves it out.
std::string text_key(const std::string& path, const Json& doc, const std::string& key) {
  if (!doc.contains(key)) return {};
  if (!doc.at(key).is_string()) bad(path, key, "must be text");
  return doc.at(key).get<std::string>();
}

// A whole number at `key` in [lo, hi], or `fallback` where the job leaves it out.
int whole_key(const std::string& path, const Json& doc, const std::string& key, int lo, int hi,
              int fallback) {
  if (!doc.contains(key)) return fallback;
  const Json& v = doc.at(key);
  if (!v.is_number_integer() || v.get<long>() < lo || v.get<long>() > hi) {
    bad(path, key, fmt::format("{} is not a whole number from {} to {}", shown(v), lo, hi));
  }
  return v.get<int>();
}

// a * b and a + b, or the largest uint64_t where that overflows: a count of points above any cap.
uint64_t saturating_product(uint64_t a, uint64_t b) {
  return b != 0 && a > std::numeric_limits<uint64_t>::max() / b
             ? std::numeric_limits<uint64_t>::max()
             : a * b;
}

uint64_t saturating_sum(uint64_t a, uint64_t b) {
  return b > std::numeric_limits<uint64_t>::max() - a ? std::numeric_limits<uint64_t>::max()
                                                      : a + b;
}

// How many points one sub-sweep gives for one sim and scheduler: the product of the sizes of the
// axes that apply to them.
uint64_t point_count(const std::vector<Axis>& axes, const RunConfig& base) {
  uint64_t n = 1;
  for (const Axis& axis : axes) {
    if (applies(*axis.parameter, base)) n = saturating_product(n, axis.values.size());
  }
  return n;
}

// The points whose configurations the sim's own check (which can be slow) must see: one for each
// distinct set of values of the sim's parameters, all that check reads (check_parameters).
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
    if (applies(*axis.parameter, base)) live.push_back(&axis);
  }
  std::vector<size_t> at(live.size(), 0);
  while (true) {
    JobPoint point{base, {}, {}};
    std::string sim_key = base.sim;
    for (size_t i = 0; i < live.size(); ++i) {
      const Parameter& p = *live[i]->parameter;
      const auto& [value_where, text] = live[i]->values[at[i]];
      p.set(point.config, printable(path) + ": " + value_where, text);
      point.given.push_back(p.key);
      if (p.scope == ParameterScope::kSim) sim_key += "\n" + p.key + "=" + text;
    }
    try {
      check_parameters(point.config, point.given);
    } catch (const UsageError& e) {
      bad(path, where, e.what());
    }
    if (sim_checks.seen.insert(sim_key).second) sim_checks.points.emplace_back(where, out.size());
    out.push_back(std::move(point));
    size_t i = 0;
    while (i < live.size() && ++at[i] == live[i]->values.size())
      at[i++] = 0;
    if (i == live.size()) break;
  }
}

// A name that keeps results/<device>/<name>.json and <name>.slurm.sh where they belong.
void check_name(const std::string& path, const std::string& name) {
  const bool control = std::any_of(name.begin(), name.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (name.empty() || name.find('/') != std::string::npos || name.find("..") != std::string::npos ||
      control) {
    bad(path, "name",
        fmt::format("'{}' is not accepted; accepted: a name without '/', '..' or control "
                    "characters (it names the results file; default: the job file's name)",
                    printable(name)));
  }
}

// The names at `key`, each one `find` knows (find_sim, find_scheduler).
template <class Find>
std::vector<std::string> known_names(const std::string& path, const Json& doc,
                                     const std::string& key, Find find) {
  const std::vector<std::string> names = string_list(path, doc, key);
  for (const std::string& name : names) {
    try {
      find(name);
    } catch (const UsageError& e) {
      bad(path, key, e.what());
    }
  }
  return names;
}

// Everything of the job but its points.
void read_header(const std::string& path, const Json& doc, Job& job) {
  if (!doc.is_object()) bad(path, "(top level)", "must be an object");
  for (const auto& [key, value] : doc.items()) {
    if (std::find(kJobKeys.begin(), kJobKeys.end(), key) == kJobKeys.end()) {
      bad(path, printable(key),
          fmt::format("unknown key; accepted: {}", fmt::join(kJobKeys, ", ")));
    }
  }
  for (const char* key : {"sims", "schedulers", "axes"}) {
    if (!doc.contains(key)) bad(path, key, "missing");
  }
  job.path = path;
  job.spec = doc;
  job.name = doc.contains("name") ? text_key(path, doc, "name")
                                  : std::filesystem::path(path).stem().string();
  check_name(path, job.name);
  job.description = text_key(path, doc, "description");
  if (doc.contains("figures")) job.figures = string_list(path, doc, "figures");
  if (doc.contains("estimated_s")) {
    const Json& e = doc.at("estimated_s");
    if (!e.is_number() || e.get<double>() <= 0) bad(path, "estimated_s", "must be seconds above 0");
    job.estimated_s = e.get<double>();
  }
  job.repetitions = whole_key(path, doc, "repetitions", 1, 1000, job.repetitions);
  job.warmup = whole_key(path, doc, "warmup", 0, 100, job.warmup);
}

// "axes": one sub-sweep, or a list of them whose points are joined; each with where it stands.
std::vector<std::pair<std::string, std::vector<Axis>>> read_sweeps(const std::string& path,
                                                                   const Json& axes,
                                                                   uint64_t max_points) {
  std::vector<std::pair<std::string, std::vector<Axis>>> sweeps;
  if (!axes.is_array()) {
    sweeps.emplace_back("axes", read_axes(path, "axes", axes, max_points));
    return sweeps;
  }
  if (axes.empty()) bad(path, "axes", "is an empty list of sub-sweeps");
  for (size_t i = 0; i < axes.size(); ++i) {
    const std::string where = fmt::format("axes[{}]", i);
    sweeps.emplace_back(where, read_axes(path, where, axes[i], max_points));
  }
  return sweeps;
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
  std::map<std::string, std::set<std::string>> seen;
  for (const JobPoint& p : points) {
    const nlohmann::json config = config_json(p.config);
    for (const auto& [key, value] : config.items())
      seen[key].insert(value.dump());
  }
  for (JobPoint& p : points) {
    std::string label = p.config.sim + "__" + p.config.scheduler;
    const nlohmann::json config = config_json(p.config);
    for (const auto& [key, value] : config.items()) {
      if (key == "sim" || key == "scheduler" || seen[key].size() < 2) continue;
      label += "__" + key + "-" + (value.is_string() ? value.get<std::string>() : value.dump());
    }
    for (char& ch : label) {
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_' && ch != '.')
        ch = '_';
    }
    p.label = label;
  }
}

Job load_job(const std::string& path, bool have_gpu, uint64_t max_points) {
  const Json doc = read_json_file(path, "job file");
  Job job;
  read_header(path, doc, job);
  const std::vector<std::string> sims = known_names(path, doc, "sims", find_sim);
  std::vector<std::string> schedulers = known_names(path, doc, "schedulers", find_scheduler);
  if (doc.contains("fallback_schedulers")) {
    const std::vector<std::string> fallback =
        known_names(path, doc, "fallback_schedulers", find_scheduler);
    if (!have_gpu) {
      job.skipped.push_back(fmt::format("no CUDA device: running fallback_schedulers instead of {}",
                                        fmt::join(schedulers, ", ")));
      schedulers = fallback;
    }
  }
  const auto sweeps = read_sweeps(path, doc.at("axes"), max_points);
  const std::vector<RunConfig> bases = runnable(sims, schedulers, have_gpu, job.skipped);

  // How many points there are, before any is built.
  uint64_t count = 0;
  for (const RunConfig& base : bases) {
    for (const auto& sweep : sweeps)
      count = saturating_sum(count, point_count(sweep.second, base));
  }
  if (count > max_points) {
    bad(path, "axes",
        fmt::format("{} points; accepted: at most {} (--max-points raises it)", count, max_points));
  }

  std::vector<JobPoint> points;
  points.reserve(count);
  SimChecks sim_checks;
  for (const RunConfig& base : bases) {
    for (const auto& [where, sweep] : sweeps)
      expand_axes(path, where, sweep, base, sim_checks, points);
  }
  for (const auto& [where, i] : sim_checks.points) {
    try {
      find_sim(points[i].config.sim).check(points[i].config);
    } catch (const UsageError& e) {
      bad(path, where, e.what());
    }
  }
  label_points(points);
  std::set<std::string> labels;
  for (JobPoint& p : points) {
    if (labels.insert(p.label).second) job.points.push_back(std::move(p));
  }
  if (job.points.empty()) bad(path, "schedulers", "no point can run here");
  return job;
}

}  // namespace sb
