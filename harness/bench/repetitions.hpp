// What time_repetitions and time_sampled (harness/bench/timing.hpp, sampling.hpp) measured, as
// plain data for the writers of results files.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace sb {

// One repetition as its caller measured it.
struct Repetition {
  double time_ms = 0;
  std::map<std::string, double> counters;
  std::string error;  // why the measurement ends here, or "" where it goes on
};

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

// A point's energy record (results/README.md): `joules` over `seconds` of wall time that held
// `repetitions` timed runs, as joules, joules_per_repetition, mean_power_w and seconds.
nlohmann::ordered_json energy_record(double joules, double seconds, size_t repetitions);

}  // namespace sb
