// Statistics of repeated timings, shared by recommend's verdicts and compare's: quantiles, the
// spread of a measurement, and seeded bootstraps of medians (the same times give the same answer).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace sb {

// The value at fraction `f` of sorted, non-empty `v`, between neighbours.
double quantile(const std::vector<double>& v, double f);

// The spread of a measurement: median, quartiles and range, in ms.
struct Spread {
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0;
};
Spread spread_of(std::vector<double> times_ms);

// The resamples every bootstrap here draws, and its seed.
inline constexpr int kResamples = 2000;
inline constexpr uint32_t kBootstrapSeed = 1;

// The median of one resample (with replacement) of non-empty `v`; `scratch` is reused.
double median_of_resample(const std::vector<double>& v, std::mt19937& rng,
                          std::vector<double>& scratch);

// The ratio of `other`'s median to `base`'s, with the 95 % percentile interval of that ratio over
// kResamples bootstrap resamples of each (both non-empty).
struct MedianRatio {
  double ratio = 1, lo = 1, hi = 1;
};
MedianRatio median_ratio(const std::vector<double>& base, const std::vector<double>& other);

}  // namespace sb
