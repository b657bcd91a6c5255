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

double median_of_resample(const std::vector<double>& sorted, std::mt19937& rng) {
  // A resample of n picks sorted[floor(n U)] for each of n uniform U, so its k-th smallest is
  // sorted[floor(n U_(k))], U_(k) the k-th smallest of n uniforms: Beta(k, n + 1 - k) (the ratio
  // of two gamma draws), and given U_(k) = u the next is u + (1 - u)(1 - W^(1/(n - k))), W
  // uniform. Drawing the middle ones so gives the resample's median in the same distribution at a
  // cost that does not grow with n.
  const size_t n = sorted.size();
  const size_t k = (n + 1) / 2;  // the (lower) middle, from 1
  const auto at = [&](double u) {
    return sorted[std::min(n - 1, static_cast<size_t>(u * static_cast<double>(n)))];
  };
  const auto gamma = [&](size_t shape) {
    return std::gamma_distribution<double>(static_cast<double>(shape), 1.0)(rng);
  };
  const double x = gamma(k), u = x / (x + gamma(n + 1 - k));
  if (n % 2 == 1) return at(u);
  const double w = std::uniform_real_distribution<double>(0, 1)(rng);
  const double next = u + (1 - u) * (1 - std::pow(w, 1 / static_cast<double>(n - k)));
  return at(u) + 0.5 * (at(next) - at(u));  // as quantile() takes the middle of two
}

MedianRatio median_ratio(std::vector<double> base, std::vector<double> other) {
  std::sort(base.begin(), base.end());
  std::sort(other.begin(), other.end());
  std::mt19937 rng(kBootstrapSeed);
  std::vector<double> ratios;
  ratios.reserve(kResamples);
  for (int k = 0; k < kResamples; ++k) {
    const double b = median_of_resample(base, rng);
    ratios.push_back(median_of_resample(other, rng) / b);
  }
  std::sort(ratios.begin(), ratios.end());
  return {quantile(other, 0.5) / quantile(base, 0.5), quantile(ratios, 0.025),
          quantile(ratios, 0.975)};
}

MedianInterval median_interval(std::vector<double> times_ms) {
  if (times_ms.empty()) return {};
  std::sort(times_ms.begin(), times_ms.end());
  const size_t n = times_ms.size();
  // P(B = i) for B ~ binomial(n, 1/2).
  const auto mass = [n](size_t i) {
    return std::exp(
        std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(i) + 1) -
        std::lgamma(static_cast<double>(n - i) + 1) - static_cast<double>(n) * std::log(2.0));
  };
  // x(j) .. x(n+1-j) (1-based) misses the median when fewer than j samples lie below it or
  // fewer than j above: probability 2 P(B <= j-1). The sums P(B <= j) grow a term per j, so that
  // the work is linear in n.
  size_t j = 1;
  double below = mass(0), upto = below + mass(1);  // P(B <= j-1), P(B <= j)
  while (j + 1 <= (n + 1) / 2 && 1 - 2 * upto >= 0.95) {
    ++j;
    below = upto;
    upto += mass(j);
  }
  return {times_ms[j - 1], times_ms[n - j], n == 1 ? 0 : 1 - 2 * below};
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
