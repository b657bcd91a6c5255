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

// The median of one resample (with replacement) of non-empty, sorted `sorted`, drawn at a cost
// that does not depend on its size.
double median_of_resample(const std::vector<double>& sorted, std::mt19937& rng);

// The ratio of `other`'s median to `base`'s, with the 95 % percentile interval of that ratio over
// kResamples bootstrap resamples of each (both non-empty).
struct MedianRatio {
  double ratio = 1, lo = 1, hi = 1;
};
MedianRatio median_ratio(std::vector<double> base, std::vector<double> other);

// The median's distribution-free interval: the order statistics x(j) and x(n+1-j) of the sorted
// times, j the largest for which the pair covers the true median with probability at least 95 %
// (the count of samples below the median is binomial(n, 1/2)). Below 6 samples no pair reaches
// 95 %: then [min, max] with the level it has (93.75 % at 5). `level` is that probability.
struct MedianInterval {
  double lo = 0, hi = 0, level = 0;
};
MedianInterval median_interval(std::vector<double> times_ms);

// What repeated times say, as every results file records them (results/README.md): median, mean,
// standard deviation, cv (a fraction), range, the median's interval and the point's noise, the
// larger distance from the median to an end of its interval as a fraction of the median.
struct TimingStats {
  size_t samples = 0;
  double median = 0, mean = 0, stddev = 0, cv = 0, min = 0, max = 0;
  MedianInterval interval;
  double noise = 0;
};
TimingStats timing_stats(const std::vector<double>& times_ms);

}  // namespace sb
