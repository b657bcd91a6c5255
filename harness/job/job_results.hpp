// The results file of a job (results/README.md, schema schedbench.job/1): made from the job or
// read back to resume it, and rewritten whole and atomically after every point, so that it
// always holds every point that has finished.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/job/job.hpp"

namespace sb {

inline constexpr const char* kJobSchema = "schedbench.job/1";

class JobResults {
 public:
  JobResults(const JobHeader& job, int shard_index, int shard_count,
             nlohmann::ordered_json environment);

  // The file at `path`, which must be a results file of `job`'s name; UsageError if not.
  static JobResults read(const std::string& path, const JobHeader& job);

  // The record of the point labelled `label`, or nullptr.
  const nlohmann::ordered_json* find(const std::string& label) const;
  // Adds `point`, replacing a record with the same label; points stay in job order ("index").
  void put(nlohmann::ordered_json point);
  // Records how many points the sweep (or shard) that writes this file runs, so that a merge
  // can tell a shard that finished from one that was stopped.
  void plan(size_t points);
  // Adds (or replaces) a top-level section beside the points: a command's own summary of them
  // (recommend's ranking).
  void set_section(const std::string& key, nlohmann::ordered_json value);
  // Sets each point's efficiency against `bound` and writes the file atomically.
  void write(const std::string& path);

  const nlohmann::ordered_json& doc() const { return doc_; }

 private:
  friend struct MergeOutcome merge_shards(const std::string& path);
  explicit JobResults(nlohmann::ordered_json doc) : doc_(std::move(doc)) {}
  nlohmann::ordered_json doc_;
};

// A file-name form of the device the environment names: "nvidia-h100-80gb-hbm3", or
// "cpu-<model>" where there is no CUDA device.
std::string device_slug(const nlohmann::json& environment);

// Where `schedbench sweep` writes by default: results/<device>/<job name>.json.
std::string default_results_path(const JobHeader& job, const nlohmann::json& environment);

// The most shards a sweep may be split into (`sweep --shard I/N`).
inline constexpr int kMaxShards = 100000;

// The file shard `index` of `count` writes for `path`: X.json -> X.shard-I-of-N.json.
std::string shard_path(const std::string& path, int index, int count);

// The times a point record may hold, in ms: from a nanosecond, far above a double's smallest
// values, so that every ratio of two times is a finite number, to 115 days.
inline constexpr double kMinTimeMs = 1e-6, kMaxTimeMs = 1e10;

// Checks the fields of one point record that the commands read (results/README.md): an ok
// record's times, statistics, counts and counters, a failed one's failure and error, each of its
// type, the times within kMinTimeMs..kMaxTimeMs. UsageError "`where`.FIELD: ..." otherwise.
void check_point_record(const nlohmann::ordered_json& p, const std::string& where);

// A point record's configuration as a key: the same in every file where the same run was
// recorded (a configuration written before `ranks` was recorded is one rank's).
std::string configuration_key(const nlohmann::ordered_json& point);

// A results file (schedbench.job/1) as read and checked: every point record as
// check_point_record checks it, each point listed once, by its label, its index and its
// configuration (UsageError naming the file and the point otherwise).
nlohmann::ordered_json read_results_file(const std::string& path);

struct MergeOutcome {
  size_t points = 0;                    // in the merged file
  std::vector<std::string> unfinished;  // a line per shard that did not finish; then no file
};

// Joins the shard files of `path` (X.shard-I-of-N.json, all of the same job) into `path` if
// every shard of 1..N finished; otherwise writes nothing and names each shard that did not
// (no file, or fewer points than it planned). UsageError where the files do not fit together.
MergeOutcome merge_shards(const std::string& path);

}  // namespace sb
