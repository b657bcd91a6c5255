#include "harness/job/job_results.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/json_file.hpp"
#include "harness/job/job_form.hpp"
#include "harness/job/parameters.hpp"
#include "schedulers/registry.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// What a field of a point record holds.
enum class Holds {
  kString,
  kWhole,
  kNumber,
  kBool,
  kObject,
  kTime,
  kTimes,    // a non-empty list of times
  kNumbers,  // a list, or an object, of numbers
  kWholes,   // a list of whole numbers
  kStrings,  // a list of strings
};

std::string accepted(Holds h) {
  switch (h) {
    case Holds::kString:
      return "a string";
    case Holds::kWhole:
      return "a whole number";
    case Holds::kNumber:
      return "a number";
    case Holds::kBool:
      return "true or false";
    case Holds::kObject:
      return "an object";
    case Holds::kTime:
      return fmt::format("a time from {:g} to {:g} ms", kMinTimeMs, kMaxTimeMs);
    case Holds::kTimes:
      return fmt::format("a non-empty list of times, each from {:g} to {:g} ms", kMinTimeMs,
                         kMaxTimeMs);
    case Holds::kNumbers:
      return "a list or an object of numbers";
    case Holds::kWholes:
      return "a list of whole numbers";
    default:
      return "a list of strings";
  }
}

bool is_time(const Json& t) {
  return t.is_number() && t.get<double>() >= kMinTimeMs && t.get<double>() <= kMaxTimeMs;
}

bool holds(const Json& v, Holds h) {
  switch (h) {
    case Holds::kString:
      return v.is_string();
    case Holds::kWhole:
      return v.is_number_unsigned();
    case Holds::kNumber:
      return v.is_number();
    case Holds::kBool:
      return v.is_boolean();
    case Holds::kObject:
      return v.is_object();
    case Holds::kTime:
      return is_time(v);
    case Holds::kTimes:
      return v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), is_time);
    case Holds::kNumbers:
      return (v.is_array() || v.is_object()) &&
             std::all_of(v.begin(), v.end(), [](const Json& x) { return x.is_number(); });
    case Holds::kWholes:
      return v.is_array() &&
             std::all_of(v.begin(), v.end(), [](const Json& x) { return x.is_number_unsigned(); });
    default:
      return v.is_array() &&
             std::all_of(v.begin(), v.end(), [](const Json& x) { return x.is_string(); });
  }
}

struct RecordField {
  const char* pointer;  // where it stands: "/stats/median_ms"
  Holds holds;
  bool required;  // where the object it stands in is present
};

// The fields of a point record that the sweep (its summary, --resume, the bound's efficiency),
// merge, compare, export and the plots read, with their types (results/README.md): a record that
// lacks a required one or holds another type is refused, naming it, rather than read wrongly.
// An object comes before its fields. (A runner's result is checked so too, as it becomes a
// record: merge_visits reads the rest.)
const std::vector<RecordField> kEveryRecord = {{"/index", Holds::kWhole, true},
                                               {"/label", Holds::kString, true},
                                               {"/config", Holds::kObject, true},
                                               {"/config/sim", Holds::kString, true},
                                               {"/config/scheduler", Holds::kString, true}};
const std::vector<RecordField> kOkRecord = {
    {"/digest", Holds::kString, true},
    {"/repetitions_ms", Holds::kTimes, true},
    {"/stats", Holds::kObject, true},
    {"/stats/median_ms", Holds::kTime, true},
    {"/stats/cv", Holds::kNumber, true},
    {"/stats/noise", Holds::kNumber, false},
    {"/counts", Holds::kObject, true},
    {"/counts/final", Holds::kWhole, true},
    {"/counts/particle_steps", Holds::kWhole, true},
    {"/counts/peak", Holds::kWhole, true},
    {"/counts/slots_used", Holds::kWhole, false},
    {"/counts/peak_live", Holds::kWhole, false},
    {"/counts/record_bytes", Holds::kNumber, false},
    {"/counters", Holds::kObject, true},
    {"/counters/particle_steps_per_s", Holds::kNumber, true},
    {"/counters/efficiency", Holds::kNumber, false},
    {"/counters/memory_efficiency", Holds::kNumber, false},
    {"/parts_ms", Holds::kNumbers, false},
    {"/reduce_ms", Holds::kNumber, false},
    {"/wall_s", Holds::kNumber, false},
    {"/gpu_clocks", Holds::kObject, false},
    {"/gpu_clocks/sm_mhz", Holds::kNumbers, true},
    {"/gpu_clocks/throttled", Holds::kWholes, true},
    {"/gpu_clocks/reasons", Holds::kStrings, false},
    {"/noisy", Holds::kBool, false}};
const std::vector<RecordField> kFailedRecord = {{"/failure", Holds::kString, true},
                                                {"/error", Holds::kString, true}};

void check_fields(const Json& p, const std::vector<RecordField>& fields, const std::string& where) {
  for (const RecordField& f : fields) {
    const Json::json_pointer at(f.pointer);
    if (!p.contains(at.parent_pointer())) continue;  // in an object that is left out
    const bool present = p.contains(at);
    if (present ? holds(p.at(at), f.holds) : !f.required) continue;
    std::string name = f.pointer + 1;
    std::replace(name.begin(), name.end(), '/', '.');
    throw UsageError(fmt::format("{}.{}: {}; accepted: {}", where, name,
                                 present ? shown_json(p.at(at)) : "missing", accepted(f.holds)));
  }
}

}  // namespace

void check_point_record(const Json& p, const std::string& where) {
  if (!p.is_object()) {
    throw UsageError(
        fmt::format("{}: {}; accepted: a point record (results/README.md)", where, shown_json(p)));
  }
  check_fields(p, kEveryRecord, where);
  if (!p.contains("status") || (p["status"] != "ok" && p["status"] != "failed")) {
    throw UsageError(fmt::format("{}.status: {}; accepted: \"ok\" or \"failed\"", where,
                                 p.contains("status") ? shown_json(p["status"]) : "missing"));
  }
  check_fields(p, p["status"] == "ok" ? kOkRecord : kFailedRecord, where);
}

std::string configuration_key(const Json& point) {
  nlohmann::json config = recorded_config(point["config"]);
  if (!config.contains("ranks")) config["ranks"] = 1;
  return config.dump();
}

namespace {

// A results file lists each point once: a label or a configuration twice would be counted twice
// by compare, or one record hidden behind the other by --resume. (Indices may repeat in a file
// joined by hand from several sweeps' files; a shard's may not: check_shard_points.)
void check_results(const Json& doc, const std::string& path, const std::string& job_name) {
  if (!doc.is_object() || doc.value("schema", "") != kJobSchema || !doc.contains("points") ||
      !doc["points"].is_array()) {
    throw UsageError(fmt::format("{}: not a {} results file", path, kJobSchema));
  }
  const std::string name =
      doc.contains("job") && doc["job"].is_object() ? doc["job"].value("name", "") : "";
  if (!job_name.empty() && name != job_name) {
    throw UsageError(fmt::format("{}: holds job '{}', not '{}'", path, name, job_name));
  }
  std::map<std::string, size_t> labels, configurations;
  const Json& points = doc["points"];
  for (size_t i = 0; i < points.size(); ++i) {
    const Json& p = points[i];
    check_point_record(p, fmt::format("{}: points[{}]", path, i));
    const std::string label = printable(p["label"].get<std::string>());
    const auto [twin, new_label] = labels.emplace(p["label"].get<std::string>(), i);
    if (!new_label) {
      throw UsageError(
          fmt::format("{}: points[{}] ({}) is listed twice (points[{}] too); accepted: each point "
                      "once",
                      path, i, label, twin->second));
    }
    const auto [same, new_configuration] = configurations.emplace(configuration_key(p), i);
    if (!new_configuration) {
      throw UsageError(fmt::format(
          "{}: points[{}] ({}) and points[{}] ({}) have the same configuration; accepted: each "
          "point once",
          path, same->second, printable(points[same->second]["label"].get<std::string>()), i,
          label));
    }
  }
}

// Whether `bound` measured the workload of `point`: every parameter both configurations have,
// but the scheduler, has the same value. (A parameter only one of them reads, such as
// blocks_per_sm, which bound reads and cpu-sync does not, says nothing about the workload.)
bool same_workload(const Json& bound, const Json& point) {
  for (const auto& [key, value] : bound["config"].items()) {
    if (key != "scheduler" && point["config"].contains(key) && point["config"][key] != value)
      return false;
  }
  return true;
}

bool is_ok(const Json& p) {
  return p.value("status", "") == "ok";
}

// The device's peak DRAM bandwidth as the results' environment records it; 0 where it does not
// (a CPU machine, or results written before it was recorded).
double peak_bandwidth(const Json& doc) {
  const Json& device = doc.value("environment", Json::object()).value("device", Json());
  return device.is_object() ? device.value("memory_bandwidth_peak_bytes_per_s", 0.0) : 0.0;
}

// A GPU point's memory line: the time its particle-record traffic takes at the peak bandwidth,
// and the fraction of its median that is (docs/performance.md, "The bound and the memory line").
void set_memory_line(Json& p, double bandwidth) {
  p["counters"].erase("memory_line_ms");
  p["counters"].erase("memory_efficiency");
  const Json& counts = p.value("counts", Json::object());
  if (bandwidth <= 0 || !counts.contains("record_bytes")) return;
  if (find_scheduler(p["config"]["scheduler"].get<std::string>()).kind != SchedulerKind::kGpu)
    return;
  const double line_ms = counts["record_bytes"].get<double>() / bandwidth * 1e3;
  p["counters"]["memory_line_ms"] = line_ms;
  p["counters"]["memory_efficiency"] = line_ms / p["stats"]["median_ms"].get<double>();
}

}  // namespace

JobResults::JobResults(const JobHeader& job, int shard_index, int shard_count, Json environment)
    : doc_({{"schema", kJobSchema},
            {"job",
             {{"name", job.name},
              {"file", job.path},
              {"description", job.description},
              {"spec", job.spec},
              {"sampling", sampling_json(job.sampling)}}},
            {"shard", {{"index", shard_index}, {"count", shard_count}}},
            {"environment", std::move(environment)},
            {"points", Json::array()}}) {}

JobResults JobResults::read(const std::string& path, const JobHeader& job) {
  Json doc = read_json_file(path, "results file");
  check_results(doc, path, job.name);
  return JobResults(std::move(doc));
}

const Json* JobResults::find(const std::string& label) const {
  for (const Json& p : doc_["points"]) {
    if (p["label"] == label) return &p;
  }
  return nullptr;
}

void JobResults::put(Json point) {
  Json& points = doc_["points"];
  for (auto it = points.begin(); it != points.end(); ++it) {
    if ((*it)["label"] == point["label"]) {
      points.erase(it);
      break;
    }
  }
  const auto later = std::find_if(points.begin(), points.end(), [&](const Json& p) {
    return p["index"].get<size_t>() > point["index"].get<size_t>();
  });
  points.insert(later, std::move(point));
}

void JobResults::plan(size_t points) {
  doc_["shard"]["planned_points"] = points;
}

void JobResults::set_section(const std::string& key, Json value) {
  doc_[key] = std::move(value);
}

void JobResults::write(const std::string& path) {
  const double bandwidth = peak_bandwidth(doc_);
  for (Json& p : doc_["points"]) {
    if (!is_ok(p) || p["config"].value("scheduler", "") == "bound") continue;
    p["counters"].erase("efficiency");
    // Where several bound points fit (at different blocks_per_sm), the fastest is the yardstick.
    double bound_ms = 0;
    for (const Json& b : doc_["points"]) {
      if (is_ok(b) && b["config"].value("scheduler", "") == "bound" && same_workload(b, p)) {
        const double ms = b["stats"]["median_ms"].get<double>();
        if (bound_ms == 0 || ms < bound_ms) bound_ms = ms;
      }
    }
    if (bound_ms > 0)
      p["counters"]["efficiency"] = bound_ms / p["stats"]["median_ms"].get<double>();
    set_memory_line(p, bandwidth);
  }
  write_file_atomically(path, doc_.dump(2) + "\n");
}

std::string device_slug(const nlohmann::json& environment) {
  const nlohmann::json d = environment.value("device", nlohmann::json());
  std::string name = d.is_null() ? "cpu-" + environment["host"]["cpu"].get<std::string>()
                                 : d["name"].get<std::string>();
  std::string slug;
  for (const char ch : name) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      slug += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-')
    slug.pop_back();
  return slug;
}

std::string default_results_path(const JobHeader& job, const nlohmann::json& environment) {
  return fmt::format("results/{}/{}.json", device_slug(environment), job.name);
}

std::string shard_path(const std::string& path, int index, int count) {
  const fs::path p(path);
  return (p.parent_path() / fmt::format("{}.shard-{}-of-{}.json", p.stem().string(), index, count))
      .string();
}

namespace {

// I or N of a shard file's name: a sweep has at most kMaxShards shards (`sweep --shard`).
int shard_number(const std::string& file, const std::string& digits) {
  if (digits.size() > 6 || std::stoi(digits) < 1 || std::stoi(digits) > kMaxShards) {
    throw UsageError(
        fmt::format("{}: '{}' is not a shard number; accepted: 1 to {}", file, digits, kMaxShards));
  }
  return std::stoi(digits);
}

// A shard's points are its own (a job's point k runs in shard k % N + 1), each once, and no more
// than it planned.
void check_shard_points(const Json& shard, const std::string& file, int index, int count) {
  std::set<size_t> seen;
  for (const Json& p : shard["points"]) {
    const size_t k = p["index"].get<size_t>();
    if (static_cast<int>(k % static_cast<size_t>(count)) != index - 1) {
      throw UsageError(fmt::format("{}: point {} ({}) belongs to shard {} of {}, not {}", file, k,
                                   p["label"].get<std::string>(), k % count + 1, count, index));
    }
    if (!seen.insert(k).second) {
      throw UsageError(
          fmt::format("{}: point {} ({}) is listed twice", file, k, p["label"].get<std::string>()));
    }
  }
  const Json& plan = shard.contains("shard") && shard["shard"].is_object()
                         ? shard["shard"].value("planned_points", Json())
                         : Json();
  if (plan.is_number_unsigned() && seen.size() > plan.get<size_t>()) {
    throw UsageError(
        fmt::format("{}: {} points but it planned {}", file, seen.size(), plan.get<size_t>()));
  }
}

}  // namespace

nlohmann::ordered_json read_results_file(const std::string& path) {
  Json doc = read_json_file(path, "results file");
  check_results(doc, path, "");
  return doc;
}

MergeOutcome merge_shards(const std::string& path) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : ".";
  const std::regex pattern(
      std::regex_replace(target.stem().string(), std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
      R"(\.shard-(\d+)-of-(\d+)\.json)");
  std::map<int, std::string> shards;
  int count = 0;
  if (fs::is_directory(dir)) {
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
      std::smatch m;
      const std::string name = e.path().filename().string();
      if (!std::regex_match(name, m, pattern)) continue;
      const int n = shard_number(e.path().string(), m[2]);
      if (count != 0 && n != count) {
        throw UsageError(
            fmt::format("{}: shards of {} and of {} sweeps lie side by side; remove the "
                        "stale ones",
                        dir.string(), count, n));
      }
      count = n;
      const int index = shard_number(e.path().string(), m[1]);
      if (index > n) {
        throw UsageError(fmt::format("{}: shard {} of {} sweeps; accepted: shards 1 to {}",
                                     e.path().string(), index, n, n));
      }
      shards[index] = e.path().string();
    }
  }
  if (count == 0) {
    throw UsageError(fmt::format("{}: no shard files ({}.shard-I-of-N.json) in {}", path,
                                 target.stem().string(), dir.string()));
  }
  std::map<int, Json> docs;
  for (const auto& [index, file] : shards) {
    Json shard = read_json_file(file, "results file");
    check_results(shard, file, "");
    if (!docs.empty() && shard["job"]["spec"] != docs.begin()->second["job"]["spec"]) {
      throw UsageError(
          fmt::format("{}: its job differs from {}'s", file, shards.at(docs.begin()->first)));
    }
    check_shard_points(shard, file, index, count);
    docs.emplace(index, std::move(shard));
  }
  MergeOutcome outcome;
  const std::string job_file = docs.begin()->second["job"].value("file", "JOB");
  for (int index = 1; index <= count; ++index) {
    const std::string file = shard_path(path, index, count);
    const std::string rerun = fmt::format("`schedbench sweep {} --out {} --shard {}/{} --resume`",
                                          job_file, path, index, count);
    const auto found = docs.find(index);
    if (found == docs.end()) {
      outcome.unfinished.push_back(fmt::format(
          "shard {} of {}: no file {}; it never ran ({} runs it)", index, count, file, rerun));
      continue;
    }
    const Json& plan = found->second["shard"]["planned_points"];
    const size_t done = found->second["points"].size();
    if (!plan.is_number_unsigned()) {
      outcome.unfinished.push_back(fmt::format(
          "shard {} of {}: {} does not record how many points it planned (an older schedbench "
          "wrote it; {} records it)",
          index, count, file, rerun));
    } else if (done < plan.get<size_t>()) {
      outcome.unfinished.push_back(fmt::format(
          "shard {} of {}: {} of {} points in {}; it was stopped before its end ({} runs the rest)",
          index, count, done, plan.get<size_t>(), file, rerun));
    }
  }
  if (!outcome.unfinished.empty()) return outcome;

  Json merged = docs.begin()->second;
  merged["points"] = Json::array();
  std::vector<std::string> sources;
  size_t planned = 0;
  for (auto& [index, shard] : docs) {
    planned += shard["shard"]["planned_points"].get<size_t>();
    for (Json& p : shard["points"])
      merged["points"].push_back(std::move(p));
    sources.push_back(shards.at(index));
  }
  merged["shard"] = {
      {"index", 1}, {"count", 1}, {"planned_points", planned}, {"merged_from", sources}};
  std::stable_sort(merged["points"].begin(), merged["points"].end(),
                   [](const Json& x, const Json& y) {
                     return x["index"].get<size_t>() < y["index"].get<size_t>();
                   });
  JobResults results(std::move(merged));
  results.write(path);
  outcome.points = results.doc()["points"].size();
  return outcome;
}

}  // namespace sb
