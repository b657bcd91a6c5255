#include "harness/job/job_form.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "core/errors.hpp"
#include "core/printable.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

// Whether `v` is a number of whole value: 100 or 1e2, which JSON reads as a real (a whole value
// counts as a whole number: jobs/README.md).
bool is_whole(const Json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) &&
         v.get<double>() == std::floor(v.get<double>());
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
    job_error(path, where, shown_json(v) + " is not a value; " + kAxisForms);
  return value_text(v);
}

[[noreturn]] void too_many(const std::string& path, const std::string& where, double count,
                           uint64_t max_points) {
  job_error(path, where,
            fmt::format("{:.0f} values; accepted: at most {} (--max-points raises it)", count,
                        max_points));
}

// "key": 5 | [v, ...] | {"linear": [a, b], "step": s} | {"log": [a, b], "points": k}. A range is
// counted before it is listed, and refused above `max_points` values: an axis has at least as
// many points as values wherever it applies. Log ranges between whole numbers give whole numbers.
std::vector<std::pair<std::string, std::string>> axis_values(const std::string& path,
                                                             const std::string& where,
                                                             const Json& v, uint64_t max_points) {
  std::vector<std::pair<std::string, std::string>> out;
  if (v.is_array()) {
    if (v.empty()) job_error(path, where, "is an empty list");
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
      job_error(
          path, fmt::format("{}.{}", where, kind),
          fmt::format("{} is not accepted; accepted: [first, last], two numbers, first <= last",
                      shown_json(e)));
    }
    return std::make_pair(e[0].get<double>(), e[1].get<double>());
  };
  if (v.size() == 2 && v.contains("linear") && v.contains("step")) {
    const auto [a, b] = ends("linear");
    const Json& s = v.at("step");
    if (!s.is_number() || s.get<double>() <= 0) {
      job_error(path, where + ".step",
                shown_json(s) + " is not accepted; accepted: a number above 0");
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
    if (a <= 0) job_error(path, where + ".log", "first must be above 0");
    const Json& k = v.at("points");
    if (!is_whole(k) || k.get<double>() < 2) {
      job_error(path, where + ".points",
                shown_json(k) + " is not accepted; accepted: a whole number of at least 2");
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
  job_error(path, where, shown_json(v) + " is not accepted; " + kAxisForms);
}

// The text at `key`, or "" where the job leaves it out.
std::string text_key(const std::string& path, const Json& doc, const std::string& key) {
  if (!doc.contains(key)) return {};
  if (!doc.at(key).is_string()) job_error(path, key, "must be text");
  return doc.at(key).get<std::string>();
}

// A whole number at `key` in [lo, hi], or `fallback` where the job leaves it out.
int whole_key(const std::string& path, const Json& doc, const std::string& key, int lo, int hi,
              int fallback) {
  if (!doc.contains(key)) return fallback;
  const Json& v = doc.at(key);
  if (!is_whole(v) || v.get<double>() < lo || v.get<double>() > hi) {
    job_error(path, key,
              fmt::format("{} is not a whole number from {} to {}", shown_json(v), lo, hi));
  }
  return v.get<int>();
}

// A number of seconds or a percentage at `key` in [lo, hi], or `fallback` where the job leaves
// it out.
double real_key(const std::string& path, const Json& doc, const std::string& key, double lo,
                double hi, double fallback) {
  if (!doc.contains(key)) return fallback;
  const Json& v = doc.at(key);
  if (!v.is_number() || !(v.get<double>() >= lo) || v.get<double>() > hi) {
    job_error(path, key, fmt::format("{} is not a number from {} to {}", shown_json(v), lo, hi));
  }
  return v.get<double>();
}

// A name that keeps results/<device>/<name>.json and <name>.slurm.sh where they belong.
void check_name(const std::string& path, const std::string& name) {
  const bool control = std::any_of(name.begin(), name.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (name.empty() || name.find('/') != std::string::npos || name.find("..") != std::string::npos ||
      control) {
    job_error(path, "name",
              fmt::format("'{}' is not accepted; accepted: a name without '/', '..' or control "
                          "characters (it names the results file; default: the job file's name)",
                          printable(name)));
  }
}

// `label` with every character but letters, digits, '-', '_' and '.' made '_': a file name.
std::string file_name_label(std::string label) {
  for (char& ch : label) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_' && ch != '.')
      ch = '_';
  }
  return label;
}

// The value of control `d` at its key, or `fallback` where the job leaves it out.
template <class Enum>
Enum control_key(const std::string& path, const Json& doc, const ControlDeclaration& d,
                 Enum fallback) {
  if (!doc.contains(d.key)) return fallback;
  const Json& v = doc.at(d.key);
  if (!v.is_string()) {
    job_error(
        path, d.key,
        fmt::format("{} is not accepted; accepted: {}", shown_json(v), fmt::join(d.values, ", ")));
  }
  return static_cast<Enum>(
      control_value(d, fmt::format("{}: {}", printable(path), d.key), v.get<std::string>()));
}

}  // namespace

const ControlDeclaration& l2_control() {
  static const ControlDeclaration d{
      "l2",
      "--l2",
      "the GPU's L2 cache before each timed run: hot (as the run before left it; default) or "
      "cold (overwritten first, outside the timed part)",
      {"hot", "cold"}};
  return d;
}

const ControlDeclaration& lock_clocks_control() {
  static const ControlDeclaration d{
      "lock_clocks",
      "--lock-clocks",
      "the GPU's clocks for a point: off (as the driver sets them; default) or base (locked at "
      "the base clock through NVML, which needs root; where refused, the point runs unlocked and "
      "its record says why)",
      {"off", "base"}};
  return d;
}

size_t control_value(const ControlDeclaration& d, const std::string& where,
                     const std::string& text) {
  const auto it = std::find(d.values.begin(), d.values.end(), text);
  if (it == d.values.end()) {
    throw UsageError(fmt::format("{}: '{}' is not accepted; accepted: {}", where, printable(text),
                                 fmt::join(d.values, ", ")));
  }
  return static_cast<size_t>(it - d.values.begin());
}

void read_sampling(const std::string& path, const Json& doc, Sampling& s) {
  s.warmup = whole_key(path, doc, "warmup", 0, 100, s.warmup);
  s.repetitions = whole_key(path, doc, "repetitions", 1, 1000, s.repetitions);
  s.min_samples = whole_key(path, doc, "min_samples", 1, 1000, s.min_samples);
  s.min_time_s = real_key(path, doc, "min_time_s", 0, 3600, s.min_time_s);
  s.max_time_s = real_key(path, doc, "max_time_s", 0, 3600, s.max_time_s);
  s.max_noise_pct = real_key(path, doc, "max_noise_pct", 0, 100, s.max_noise_pct);
  s.l2 = control_key(path, doc, l2_control(), s.l2);
  s.lock_clocks = control_key(path, doc, lock_clocks_control(), s.lock_clocks);
  if (s.min_time_s > s.max_time_s) {
    job_error(path, "min_time_s",
              fmt::format("{} is above max_time_s {}; accepted: at most max_time_s", s.min_time_s,
                          s.max_time_s));
  }
}

nlohmann::ordered_json sampling_json(const Sampling& s) {
  Json out = {{"warmup", s.warmup}};
  if (s.repetitions > 0) {
    out["repetitions"] = s.repetitions;
  } else {
    out["min_samples"] = s.min_samples;
    out["min_time_s"] = s.min_time_s;
    out["max_time_s"] = s.max_time_s;
    out["max_noise_pct"] = s.max_noise_pct;
  }
  out["l2"] = l2_control().values[static_cast<size_t>(s.l2)];
  out["lock_clocks"] = lock_clocks_control().values[static_cast<size_t>(s.lock_clocks)];
  return out;
}

void job_error(const std::string& path, const std::string& key, const std::string& why) {
  throw UsageError(fmt::format("{}: {}: {}", printable(path), key, why));
}

std::string shown_json(const Json& v) {
  return printable(v.dump());
}

std::vector<std::string> job_string_list(const std::string& path, const Json& doc,
                                         const std::string& key) {
  const Json& v = doc.at(key);
  if (!v.is_array() || v.empty()) job_error(path, key, "must be a non-empty list of names");
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string())
      job_error(path, fmt::format("{}[{}]", key, i), shown_json(v[i]) + " is not a name");
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

void read_job_header(const std::string& path, const Json& doc,
                     const std::vector<std::string>& accepted,
                     const std::vector<std::string>& required, JobHeader& job) {
  if (!doc.is_object()) job_error(path, "(top level)", "must be an object");
  for (const auto& [key, value] : doc.items()) {
    if (std::find(accepted.begin(), accepted.end(), key) == accepted.end()) {
      job_error(path, printable(key),
                fmt::format("unknown key; accepted: {}", fmt::join(accepted, ", ")));
    }
  }
  for (const std::string& key : required) {
    if (!doc.contains(key)) job_error(path, key, "missing");
  }
  job.path = path;
  job.spec = doc;
  job.name = doc.contains("name") ? text_key(path, doc, "name")
                                  : std::filesystem::path(path).stem().string();
  check_name(path, job.name);
  job.description = text_key(path, doc, "description");
  if (doc.contains("figures")) job.figures = job_string_list(path, doc, "figures");
  if (doc.contains("estimated_s")) {
    const Json& e = doc.at("estimated_s");
    if (!e.is_number() || e.get<double>() <= 0)
      job_error(path, "estimated_s", "must be seconds above 0");
    job.estimated_s = e.get<double>();
  }
  read_sampling(path, doc, job.sampling);
}

std::vector<std::pair<std::string, const Json*>> sub_sweeps(const std::string& path,
                                                            const Json& axes) {
  if (!axes.is_array()) return {{"axes", &axes}};
  if (axes.empty()) job_error(path, "axes", "is an empty list of sub-sweeps");
  std::vector<std::pair<std::string, const Json*>> out;
  for (size_t i = 0; i < axes.size(); ++i)
    out.emplace_back(fmt::format("axes[{}]", i), &axes[i]);
  return out;
}

std::vector<AxisText> read_axis_texts(const std::string& path, const std::string& where,
                                      const Json& axes, const std::vector<std::string>& keys,
                                      uint64_t max_points) {
  if (!axes.is_object()) {
    job_error(path, where,
              shown_json(axes) + " is not accepted; accepted: an object of parameter: values");
  }
  std::vector<AxisText> out;
  for (const auto& [key, value] : axes.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      job_error(path, where + "." + printable(key),
                fmt::format("unknown parameter; accepted: {}", fmt::join(keys, ", ")));
    }
    out.push_back({key, axis_values(path, where + "." + key, value, max_points)});
  }
  return out;
}

uint64_t saturating_product(uint64_t a, uint64_t b) {
  return b != 0 && a > std::numeric_limits<uint64_t>::max() / b
             ? std::numeric_limits<uint64_t>::max()
             : a * b;
}

uint64_t saturating_sum(uint64_t a, uint64_t b) {
  return b > std::numeric_limits<uint64_t>::max() - a ? std::numeric_limits<uint64_t>::max()
                                                      : a + b;
}

void check_point_count(const std::string& path, uint64_t count, uint64_t max_points) {
  if (count > max_points) {
    job_error(
        path, "axes",
        fmt::format("{} points; accepted: at most {} (--max-points raises it)", count, max_points));
  }
}

void for_each_combination(const std::vector<size_t>& sizes,
                          const std::function<void(const std::vector<size_t>&)>& visit) {
  std::vector<size_t> at(sizes.size(), 0);
  while (true) {
    visit(at);
    size_t i = 0;
    while (i < sizes.size() && ++at[i] == sizes[i])
      at[i++] = 0;
    if (i == sizes.size()) return;
  }
}

std::vector<std::string> varying_labels(const std::vector<nlohmann::json>& configs,
                                        const std::vector<std::string>& lead) {
  std::map<std::string, std::set<std::string>> seen;
  for (const nlohmann::json& c : configs) {
    for (const auto& [key, value] : c.items())
      seen[key].insert(value.dump());
  }
  // A value left to the sim (null) reads "default".
  const auto text = [](const nlohmann::json& v) {
    return v.is_null() ? std::string("default") : v.is_string() ? v.get<std::string>() : v.dump();
  };
  std::vector<std::string> out;
  for (const nlohmann::json& c : configs) {
    std::vector<std::string> parts;
    for (const std::string& key : lead)
      parts.push_back(text(c.at(key)));
    for (const auto& [key, value] : c.items()) {
      const bool is_lead = std::find(lead.begin(), lead.end(), key) != lead.end();
      if (!is_lead && seen[key].size() > 1) parts.push_back(key + "-" + text(value));
    }
    out.push_back(file_name_label(fmt::format("{}", fmt::join(parts, "__"))));
  }
  return out;
}

}  // namespace sb
