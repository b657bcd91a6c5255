#include "harness/job/fields_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <utility>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/values.hpp"
#include "harness/io/json_file.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

const std::vector<std::pair<FieldKernel, const char*>> kKernels = {
    {FieldKernel::kDepositAtomic, "deposit-atomic"},
    {FieldKernel::kDepositSorted, "deposit-sorted"},
    {FieldKernel::kSolveCufft, "solve-cufft"},
    {FieldKernel::kSolveFftw, "solve-fftw"},
    {FieldKernel::kField, "field"},
    {FieldKernel::kGather, "gather"}};

const std::vector<FieldKernel> kDeposits = {FieldKernel::kDepositAtomic,
                                            FieldKernel::kDepositSorted};
const std::vector<FieldKernel> kSolves = {FieldKernel::kSolveCufft, FieldKernel::kSolveFftw};
const std::vector<FieldKernel> kAtParticles = {FieldKernel::kDepositAtomic,
                                               FieldKernel::kDepositSorted, FieldKernel::kGather};

// Grids from 4^3 to 1024^3 nodes (an open solve transforms the doubled grid: 2048^3), and up to
// 10^8 particles (2.4 GB of positions).
constexpr uint64_t kMaxGrid = 1024;
constexpr uint64_t kMaxParticles = 100'000'000;

// A row of the table: the kernels it applies to (all where empty), and how it is set and
// recorded (not at all for repetitions, which say how often, not what, is measured).
struct FieldsParameter {
  std::string key;
  std::vector<FieldKernel> kernels;
  std::function<void(FieldsPoint&, const std::string& option, const std::string& text)> set;
  std::function<Json(const FieldsConfig&)> get;
};

std::vector<std::string> kernel_names() {
  std::vector<std::string> out;
  for (const auto& [kernel, name] : kKernels)
    out.push_back(name);
  return out;
}

const std::vector<FieldsParameter>& table() {
  static const std::vector<FieldsParameter> rows = {
      {"kernel",
       {},
       [](FieldsPoint& p, const std::string& option, const std::string& text) {
         const std::string name = parse_choice(option, text, kernel_names());
         for (const auto& [kernel, n] : kKernels) {
           if (name == n) p.config.kernel = kernel;
         }
       },
       [](const FieldsConfig& c) { return Json(kernel_name(c.kernel)); }},
      {"grid",
       {},
       [](FieldsPoint& p, const std::string& option, const std::string& text) {
         p.config.grid = static_cast<int>(parse_whole(option, text, 4, kMaxGrid));
       },
       [](const FieldsConfig& c) { return Json(c.grid); }},
      {"boundary", kSolves,
       [](FieldsPoint& p, const std::string& option, const std::string& text) {
         p.config.open = parse_choice(option, text, {"periodic", "open"}) == "open";
       },
       [](const FieldsConfig& c) { return Json(c.open ? "open" : "periodic"); }},
      {"cloud", kAtParticles,
       [](FieldsPoint& p, const std::string& option, const std::string& text) {
         p.config.clustered = parse_choice(option, text, {"uniform", "clustered"}) == "clustered";
       },
       [](const FieldsConfig& c) { return Json(c.clustered ? "clustered" : "uniform"); }},
      {"particles", kAtParticles,
       [](FieldsPoint& p, const std::string& option, const std::string& text) {
         p.config.particles = parse_whole(option, text, 1, kMaxParticles);
       },
       [](const FieldsConfig& c) { return Json(c.particles); }},
      {"repetitions",
       {},
       [](FieldsPoint& p, const std::string& option, const std::string& text) {
         p.repetitions = static_cast<int>(parse_whole(option, text, 1, 1000));
       },
       nullptr},
  };
  return rows;
}

const FieldsParameter& row(const std::string& key) {
  const auto& rows = table();
  return *std::find_if(rows.begin(), rows.end(),
                       [&](const FieldsParameter& r) { return r.key == key; });
}

bool applies(const FieldsParameter& p, FieldKernel k) {
  return p.kernels.empty() || std::find(p.kernels.begin(), p.kernels.end(), k) != p.kernels.end();
}

// The points of one sub-sweep: every combination of its values, each value already checked.
void expand(const std::string& path, const std::vector<AxisText>& axes, const FieldsPoint& base,
            std::vector<FieldsPoint>& out) {
  std::vector<size_t> sizes;
  for (const AxisText& axis : axes)
    sizes.push_back(axis.values.size());
  for_each_combination(sizes, [&](const std::vector<size_t>& at) {
    FieldsPoint p = base;
    for (size_t i = 0; i < axes.size(); ++i) {
      const auto& [where, text] = axes[i].values[at[i]];
      row(axes[i].key).set(p, printable(path) + ": " + where, text);
    }
    out.push_back(std::move(p));
  });
}

}  // namespace

const char* kernel_name(FieldKernel k) {
  for (const auto& [kernel, name] : kKernels) {
    if (kernel == k) return name;
  }
  return "?";
}

std::vector<std::string> fields_parameter_keys() {
  std::vector<std::string> out;
  for (const FieldsParameter& p : table())
    out.push_back(p.key);
  return out;
}

nlohmann::json fields_config_json(const FieldsConfig& c) {
  nlohmann::json out = nlohmann::json::object();
  for (const FieldsParameter& p : table()) {
    if (p.get && applies(p, c.kernel)) out[p.key] = p.get(c);
  }
  return out;
}

FieldsJob load_fields_job(const std::string& path, uint64_t max_points) {
  const Json doc = read_json_file(path, "job file");
  FieldsJob job;
  read_job_header(
      path, doc,
      {"name", "program", "description", "figures", "estimated_s", "repetitions", "warmup", "axes"},
      {"program", "axes"}, job);
  if (doc.at("program") != "bench_fields") {
    job_error(path, "program",
              fmt::format("{} is not accepted; accepted: \"bench_fields\" (a sweep's job has no "
                          "\"program\": schedbench sweep runs it)",
                          shown_json(doc.at("program"))));
  }
  std::vector<std::vector<AxisText>> sweeps;
  uint64_t count = 0;
  for (const auto& [where, axes] : sub_sweeps(path, doc.at("axes"))) {
    std::vector<AxisText> texts =
        read_axis_texts(path, where, *axes, fields_parameter_keys(), max_points);
    for (const char* key : {"kernel", "grid"}) {
      const bool named =
          std::any_of(texts.begin(), texts.end(), [&](const AxisText& a) { return a.key == key; });
      if (!named) job_error(path, where, fmt::format("missing \"{}\"", key));
    }
    uint64_t n = 1;
    FieldsPoint scratch;
    for (const AxisText& axis : texts) {
      n = saturating_product(n, axis.values.size());
      for (const auto& [at, text] : axis.values)
        row(axis.key).set(scratch, printable(path) + ": " + at, text);
    }
    count = saturating_sum(count, n);
    sweeps.push_back(std::move(texts));
  }
  check_point_count(path, count, max_points);

  FieldsPoint base;
  // Kernels are timed a fixed number of times: the job's repetitions, or as many as a sweep's
  // point takes at least.
  base.repetitions =
      job.sampling.repetitions > 0 ? job.sampling.repetitions : job.sampling.min_samples;
  std::vector<FieldsPoint> points;
  for (const std::vector<AxisText>& texts : sweeps)
    expand(path, texts, base, points);
  std::vector<nlohmann::json> configs;
  for (const FieldsPoint& p : points)
    configs.push_back(fields_config_json(p.config));
  const std::vector<std::string> labels = varying_labels(configs, {"kernel"});
  for (size_t i = 0; i < points.size(); ++i)
    points[i].label = labels[i];
  job.points = distinct_points(std::move(points));
  return job;
}

}  // namespace sb
