// What time_repetitions and time_sampled (harness/bench/gbench_support.hpp, sampling.hpp)
// measured, as plain data for the writers of results files, which need no Google Benchmark.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace sb {

struct TimedRepetitions {
  std::vector<double> times_ms;                              // each repetition's, in order
  std::vector<std::map<std::string, double>> counters_each;  // each repetition's counters
  std::string error;  // why a repetition skipped the rest, or "" where none did

  // median_ms, mean_ms, stddev_ms, cv, min_ms, max_ms, the median's interval (median_lo_ms,
  // median_hi_ms, interval_level), noise and samples (harness/bench/statistics.hpp).
  nlohmann::ordered_json stats() const;
  // Each counter's median over the repetitions.
  std::map<std::string, double> counters() const;
};

}  // namespace sb
