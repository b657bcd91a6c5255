// What time_repetitions (harness/bench/gbench_support.hpp) measured, as plain data for the
// writers of results files, which need no Google Benchmark.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace sb {

struct TimedRepetitions {
  std::vector<double> times_ms;            // each repetition's, in order
  nlohmann::ordered_json stats;            // median_ms, mean_ms, stddev_ms, cv, min_ms, max_ms
  std::map<std::string, double> counters;  // the median's (the single repetition's where one)
  std::string error;  // why a repetition skipped the rest, or "" where none did
};

}  // namespace sb
