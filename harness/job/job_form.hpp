// The JSON form every job file shares, whichever program runs it (jobs/README.md): the header
// keys (name, description, figures, estimated_s, repetitions, warmup), "axes" as one sub-sweep
// or a list of them, and each axis as a value, a list or a range. load_job (run points for
// `schedbench sweep`) and load_fields_job (bench_fields' kernels) read their files with these,
// each with its own table of axis keys.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace sb {

// The GPU's state for a point's timed runs (docs/performance.md, "How it was measured"): its L2
// cache as the run before left it (hot) or overwritten before each timed run (cold); its clocks as
// the driver sets them (off) or locked at the base clock for the point (base).
enum class L2State { kHot, kCold };
enum class ClockLock { kOff, kBase };

// A measurement control as a run job's key and the sweep's option set it: its values, the first
// the default, in the order of its enum.
struct ControlDeclaration {
  std::string key;   // job-file key, e.g. "l2"
  std::string flag;  // the sweep's option, e.g. "--l2"
  std::string help;  // one line for --help
  std::vector<std::string> values;
};
const ControlDeclaration& l2_control();
const ControlDeclaration& lock_clocks_control();

// The index of `text` among d.values; UsageError "WHERE: 'TEXT' is not accepted; accepted: ...".
size_t control_value(const ControlDeclaration& d, const std::string& where,
                     const std::string& text);

// How many timed runs a point takes (docs/performance.md, "How a point is measured"): after
// `warmup` untimed runs, exactly `repetitions` where that is above 0; otherwise at least
// `min_samples` runs and `min_time_s` seconds of measured time, then more until the median's
// interval lies within `max_noise_pct` percent of the median or `max_time_s` seconds are
// measured; and the GPU's state for them (l2, lock_clocks). Job files and the sweep's options of
// the same names set them.
struct Sampling {
  int warmup = 1;
  int repetitions = 0;
  int min_samples = 6;
  double min_time_s = 0;
  double max_time_s = 10;
  double max_noise_pct = 2;
  L2State l2 = L2State::kHot;
  ClockLock lock_clocks = ClockLock::kOff;
};

// The job-file keys of Sampling, which every kind of job accepts.
inline const std::vector<std::string> kSamplingKeys = {
    "warmup", "repetitions", "min_samples", "min_time_s", "max_time_s", "max_noise_pct"};
// The keys of the GPU's state, which run jobs accept (bench_fields neither flushes nor locks).
inline const std::vector<std::string> kDeviceControlKeys = {"l2", "lock_clocks"};

// Reads the sampling keys of `doc` (a job file, a sweep point's request) over `s`; UsageError
// "PATH: KEY: WHY" for a value out of range.
void read_sampling(const std::string& path, const nlohmann::ordered_json& doc, Sampling& s);
// The keys read_sampling reads, as it reads them: the repetitions where set, else the rule; and
// the GPU's state.
nlohmann::ordered_json sampling_json(const Sampling& s);

// What every job has besides its points.
struct JobHeader {
  std::string path;
  std::string name;
  std::string description;
  nlohmann::ordered_json spec;       // the file as read, recorded with the results
  std::vector<std::string> figures;  // the seed figures it feeds
  double estimated_s = 0;            // the author's estimate of its time on one H100; 0: none
  Sampling sampling;                 // how each point is timed
};

// Throws UsageError "PATH: KEY: WHY" (one line).
[[noreturn]] void job_error(const std::string& path, const std::string& key,
                            const std::string& why);

// A JSON value quoted in a message.
std::string shown_json(const nlohmann::ordered_json& v);

// The non-empty list of names at `key`.
std::vector<std::string> job_string_list(const std::string& path, const nlohmann::ordered_json& doc,
                                         const std::string& key);

// Checks that `doc` is an object of `accepted` keys that has every `required` one, and reads the
// header keys (name defaults to the file's stem).
void read_job_header(const std::string& path, const nlohmann::ordered_json& doc,
                     const std::vector<std::string>& accepted,
                     const std::vector<std::string>& required, JobHeader& job);

// "axes": one sub-sweep (an object), or a non-empty list of them; each with where it stands
// ("axes", "axes[2]").
std::vector<std::pair<std::string, const nlohmann::ordered_json*>> sub_sweeps(
    const std::string& path, const nlohmann::ordered_json& axes);

// One axis of a sub-sweep as written: its key, and the text of each value with where it stands
// in the file ("axes.block_size[2]").
struct AxisText {
  std::string key;
  std::vector<std::pair<std::string, std::string>> values;  // (where, text)
};

// The axes of the sub-sweep at `where`: an object whose keys are among `keys` (else "unknown
// parameter; accepted: ..."), each value a value, a list, {"linear": [a, b], "step": s} or
// {"log": [a, b], "points": k}; an axis of more than `max_points` values is refused.
std::vector<AxisText> read_axis_texts(const std::string& path, const std::string& where,
                                      const nlohmann::ordered_json& axes,
                                      const std::vector<std::string>& keys, uint64_t max_points);

// a * b and a + b, or the largest uint64_t where that overflows: a count of points above any cap.
uint64_t saturating_product(uint64_t a, uint64_t b);
uint64_t saturating_sum(uint64_t a, uint64_t b);

// Refuses a job of more than `max_points` points, naming the count.
void check_point_count(const std::string& path, uint64_t count, uint64_t max_points);

// Calls `visit` with every combination of indices below `sizes` (each size at least 1), the
// first index varying fastest; once, with no indices, where `sizes` is empty.
void for_each_combination(const std::vector<size_t>& sizes,
                          const std::function<void(const std::vector<size_t>&)>& visit);

// A label for each configuration (JSON objects of key: value): the values of `lead` keys, then
// key-value for every other key whose value differs between configurations, joined by "__" and
// made a file name (a null value, left to the sim, reads "default"); unique among them, and equal
// labels mean equal configurations.
std::vector<std::string> varying_labels(const std::vector<nlohmann::json>& configs,
                                        const std::vector<std::string>& lead);

// The points whose label no earlier point has, in order.
template <class Point>
std::vector<Point> distinct_points(std::vector<Point> points) {
  std::vector<Point> out;
  std::set<std::string> labels;
  for (Point& p : points) {
    if (labels.insert(p.label).second) out.push_back(std::move(p));
  }
  return out;
}

}  // namespace sb
