#include "harness/bench/repetitions.hpp"

#include "harness/bench/statistics.hpp"

namespace sb {

using Json = nlohmann::ordered_json;

Json TimedRepetitions::stats() const {
  const TimingStats t = timing_stats(times_ms);
  // cv and noise are fractions; results/README.md says how each is computed.
  return {{"median_ms", t.median},
          {"mean_ms", t.mean},
          {"stddev_ms", t.stddev},
          {"cv", t.cv},
          {"min_ms", t.min},
          {"max_ms", t.max},
          {"median_lo_ms", t.interval.lo},
          {"median_hi_ms", t.interval.hi},
          {"interval_level", t.interval.level},
          {"noise", t.noise},
          {"samples", t.samples}};
}

std::map<std::string, double> TimedRepetitions::counters() const {
  std::map<std::string, std::vector<double>> values;
  for (const auto& each : counters_each) {
    for (const auto& [name, value] : each)
      values[name].push_back(value);
  }
  std::map<std::string, double> out;
  for (auto& [name, v] : values)
    out[name] = spread_of(std::move(v)).median;
  return out;
}

Json energy_record(double joules, double seconds, size_t repetitions) {
  return {{"joules", joules},
          {"joules_per_repetition", joules / static_cast<double>(repetitions)},
          {"mean_power_w", seconds > 0 ? joules / seconds : 0.0},
          {"seconds", seconds}};
}

}  // namespace sb
