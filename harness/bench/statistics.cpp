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

}  // namespace sb
