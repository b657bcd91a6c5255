#include "harness/job.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "harness/json_file.hpp"
#include "harness/parameters.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

const std::vector<std::string> kJobKeys = {
    "name",       "description",         "figures",     "estimated_s", "sims",
    "schedulers", "fallback_schedulers", "repetitions", "warmup",      "axes"};

[[noreturn]] void bad(const std::string& path, const std::string& key, const std::string& why) {
  throw UsageError(fmt::format("{}: {}: {}", path, key, why));
}

std::vector<std::string> string_list(const std::string& path, const Json& job,
                                     const std::string& key) {
  const Json& v = job.at(key);
  if (!v.is_array() || v.empty()) bad(path, key, "must be a non-empty list of names");
  std::vector<std::string> out;
  for (const Json& item : v) {
    if (!item.is_string()) bad(path, key, fmt::format("{} is not a name", item.dump()));
    out.push_back(item.get<std::string>());
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

// "key": 5 | [v, ...] | {"linear": [a, b], "step": s} | {"log": [a, b], "points": k}.
// Log ranges between whole numbers give whole numbers.
std::vector<std::string> axis_values(const std::string& path, const std::string& where,
                                     const Json& v) {
  if (v.is_primitive()) return {value_text(v)};
  if (v.is_array()) {
    if (v.empty()) bad(path, where, "is an empty list");
    std::vector<std::string> out;
    for (const Json& item : v) {
      if (!item.is_primitive() || item.is_null()) bad(path, where, item.dump() + " is not a value");
      out.push_back(value_text(item));
    }
    return out;
  }
  const auto ends = [&](const char* kind) {
    const Json& e = v.at(kind);
    if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_number() ||
        e[0].get<double>() > e[1].get<double>()) {
      bad(path, where, fmt::format("\"{}\" needs [first, last] with first <= last", kind));
    }
    return std::make_pair(e[0].get<double>(), e[1].get<double>());
  };
  std::vector<std::string> out;
  if (v.is_object() && v.size() == 2 && v.contains("linear") && v.contains("step")) {
    const auto [a, b] = ends("linear");
    const Json& s = v.at("step");
    if (!s.is_number() || s.get<double>() <= 0) bad(path, where, "\"step\" must be above 0");
    const double step = s.get<double>();
    const auto n = static_cast<long>(std::floor((b - a) / step + 1e-9));
    for (long i = 0; i <= n; ++i)
      out.push_back(value_text(Json(a + static_cast<double>(i) * step)));
    return out;
  }
  if (v.is_object() && v.size() == 2 && v.contains("log") && v.contains("points")) {
    const auto [a, b] = ends("log");
    const Json& k = v.at("points");
    if (!k.is_number_integer() || k.get<long>() < 2 || a <= 0) {
      bad(path, where, "\"log\" needs first > 0 and \"points\" a whole number of at least 2");
    }
    const long points = k.get<long>();
    const bool whole = a == std::floor(a) && b == std::floor(b);
    for (long i = 0; i < points; ++i) {
      const double x =
          a * std::pow(b / a, static_cast<double>(i) / static_cast<double>(points - 1));
      const std::string text = whole ? std::to_string(std::llround(x)) : value_text(Json(x));
      if (out.empty() || out.back() != text) out.push_back(text);
    }
    return out;
  }
  bad(path, where,
      "must be a value, a list, {\"linear\": [first, last], \"step\": s} or "
      "{\"log\": [first, last], \"points\": k}");
}

// Labels name a point by sim, scheduler and the parameters that vary across the whole job, so
// that a label is unique within the job and equal labels mean equal configurations.
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
    bad(path, key, fmt::format("{} is not a whole number from {} to {}", v.dump(), lo, hi));
  }
  return v.get<int>();
}

// The points of one sub-sweep (an object of axes) for one sim and scheduler.
void expand_axes(const std::string& path, const std::string& where, const Json& axes,
                 const RunConfig& base, std::vector<JobPoint>& out) {
  if (!axes.is_object()) bad(path, where, "must be an object of parameter: values");
  std::vector<std::pair<const Parameter*, std::vector<std::string>>> live;
  for (const auto& [key, value] : axes.items()) {
    const Parameter* p = find_parameter(key);
    if (p == nullptr) {
      std::vector<std::string> keys;
      for (const Parameter& q : parameters())
        keys.push_back(q.key);
      bad(path, where + "." + key,
          fmt::format("unknown parameter; accepted: {}", fmt::join(keys, ", ")));
    }
    std::vector<std::string> values = axis_values(path, where + "." + key, value);
    // An axis multiplies only the points it applies to.
    if (applies(*p, base)) live.emplace_back(p, std::move(values));
  }
  std::vector<size_t> at(live.size(), 0);
  while (true) {
    JobPoint point{base, {}, {}};
    for (size_t i = 0; i < live.size(); ++i) {
      const Parameter& p = *live[i].first;
      p.set(point.config, path + ": " + where + "." + p.key, live[i].second[at[i]]);
      point.given.push_back(p.key);
    }
    try {
      check_config(point.config, point.given);
    } catch (const UsageError& e) {
      bad(path, where, e.what());
    }
    out.push_back(std::move(point));
    size_t i = 0;
    while (i < live.size() && ++at[i] == live[i].second.size())
      at[i++] = 0;
    if (i == live.size()) break;
  }
}

}  // namespace

Job load_job(const std::string& path, bool have_gpu) {
  const Json doc = read_json_file(path, "job file");
  if (!doc.is_object()) bad(path, "(top level)", "must be an object");
  for (const auto& [key, value] : doc.items()) {
    if (std::find(kJobKeys.begin(), kJobKeys.end(), key) == kJobKeys.end()) {
      bad(path, key, fmt::format("unknown key; accepted: {}", fmt::join(kJobKeys, ", ")));
    }
  }
  for (const char* key : {"sims", "schedulers", "axes"}) {
    if (!doc.contains(key)) bad(path, key, "missing");
  }
  Job job;
  job.path = path;
  job.spec = doc;
  job.name = text_key(path, doc, "name");
  if (job.name.empty()) job.name = std::filesystem::path(path).stem().string();
  job.description = text_key(path, doc, "description");
  if (doc.contains("figures")) job.figures = string_list(path, doc, "figures");
  if (doc.contains("estimated_s")) {
    const Json& e = doc.at("estimated_s");
    if (!e.is_number() || e.get<double>() <= 0) bad(path, "estimated_s", "must be seconds above 0");
    job.estimated_s = e.get<double>();
  }
  job.repetitions = whole_key(path, doc, "repetitions", 1, 1000, job.repetitions);
  job.warmup = whole_key(path, doc, "warmup", 0, 100, job.warmup);

  const std::vector<std::string> sims = string_list(path, doc, "sims");
  std::vector<std::string> schedulers = string_list(path, doc, "schedulers");
  if (!have_gpu && doc.contains("fallback_schedulers")) {
    job.skipped.push_back(fmt::format("no CUDA device: running fallback_schedulers instead of {}",
                                      fmt::join(schedulers, ", ")));
    schedulers = string_list(path, doc, "fallback_schedulers");
  }
  for (const std::string& s : sims) {
    try {
      find_sim(s);
    } catch (const UsageError& e) {
      bad(path, "sims", e.what());
    }
  }

  // "axes" is one sub-sweep, or a list of them whose points are joined.
  const Json& axes = doc.at("axes");
  std::vector<std::pair<std::string, const Json*>> sweeps;
  if (axes.is_array()) {
    if (axes.empty()) bad(path, "axes", "is an empty list of sub-sweeps");
    for (size_t i = 0; i < axes.size(); ++i)
      sweeps.emplace_back(fmt::format("axes[{}]", i), &axes[i]);
  } else {
    sweeps.emplace_back("axes", &axes);
  }
  std::vector<JobPoint> points;
  for (const std::string& sim : sims) {
    for (const std::string& scheduler : schedulers) {
      const SchedulerEntry* entry = nullptr;
      try {
        entry = &find_scheduler(scheduler);
      } catch (const UsageError& e) {
        bad(path, "schedulers", e.what());
      }
      if (entry->kind != SchedulerKind::kCpu && !have_gpu) {
        const std::string why = fmt::format("{}: skipped, no CUDA device", scheduler);
        if (std::find(job.skipped.begin(), job.skipped.end(), why) == job.skipped.end()) {
          job.skipped.push_back(why);
        }
        continue;
      }
      RunConfig base;
      base.sim = sim;
      base.scheduler = scheduler;
      for (const auto& [where, sweep] : sweeps)
        expand_axes(path, where, *sweep, base, points);
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
