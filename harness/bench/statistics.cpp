#include "harness/bench/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace sb {

double quantile(const std::vector<double>& v, double f) {
  const double at = f * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(at));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

Spread spread_of(std::vector<double> times_ms) {
  if (times_ms.empty()) return {};
  std::sort(times_ms.begin(), times_ms.end());
  return {quantile(times_ms, 0.5), quantile(times_ms, 0.25), quantile(times_ms, 0.75),
          times_ms.front(), times_ms.back()};
}

double median_of_resample(const std::vector<double>& v, std::mt19937& rng,
                          std::vector<double>& scratch) {
  std::uniform_int_distribution<size_t> pick(0, v.size() - 1);
  scratch.resize(v.size());
  for (double& x : scratch)
    x = v[pick(rng)];
  std::sort(scratch.begin(), scratch.end());
  return quantile(scratch, 0.5);
}

MedianRatio median_ratio(const std::vector<double>& base, const std::vector<double>& other) {
  std::mt19937 rng(kBootstrapSeed);
  std::vector<double> scratch, ratios;
  ratios.reserve(kResamples);
  for (int k = 0; k < kResamples; ++k) {
    const double b = median_of_resample(base, rng, scratch);
    ratios.push_back(median_of_resample(other, rng, scratch) / b);
  }
  std::sort(ratios.begin(), ratios.end());
  return {spread_of(other).median / spread_of(base).median, quantile(ratios, 0.025),
          quantile(ratios, 0.975)};
}

namespace {

// P(B <= k) for B ~ binomial(n, 1/2).
double binomial_half_cdf(size_t n, size_t k) {
  double sum = 0;
  for (size_t i = 0; i <= k; ++i) {
    sum += std::exp(
        std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(i) + 1) -
        std::lgamma(static_cast<double>(n - i) + 1) - static_cast<double>(n) * std::log(2.0));
  }
  return sum;
}

}  // namespace

MedianInterval median_interval(std::vector<double> times_ms) {
  if (times_ms.empty()) return {};
  std::sort(times_ms.begin(), times_ms.end());
  const size_t n = times_ms.size();
  // x(j) .. x(n+1-j) (1-based) misses the median when fewer than j samples lie below it or
  // fewer than j above: probability 2 P(B <= j-1).
  size_t j = 1;
  while (j + 1 <= (n + 1) / 2 && 1 - 2 * binomial_half_cdf(n, j) >= 0.95)
    ++j;
  return {times_ms[j - 1], times_ms[n - j], n == 1 ? 0 : 1 - 2 * binomial_half_cdf(n, j - 1)};
}

TimingStats timing_stats(const std::vector<double>& times_ms) {
  TimingStats t;
  t.samples = times_ms.size();
  if (times_ms.empty()) return t;
  const Spread s = spread_of(times_ms);
  t.median = s.median;
  t.min = s.min;
  t.max = s.max;
  double sum = 0;
  for (const double x : times_ms)
    sum += x;
  t.mean = sum / static_cast<double>(t.samples);
  double squares = 0;
  for (const double x : times_ms)
    squares += (x - t.mean) * (x - t.mean);
  t.stddev = t.samples > 1 ? std::sqrt(squares / static_cast<double>(t.samples - 1)) : 0;
  t.cv = t.mean > 0 ? t.stddev / t.mean : 0;
  t.interval = median_interval(times_ms);
  t.noise =
      t.median > 0 ? std::max(t.median - t.interval.lo, t.interval.hi - t.median) / t.median : 0;
  return t;
}

}  // namespace sb
