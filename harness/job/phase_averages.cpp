#include "harness/job/phase_averages.hpp"

#include <cmath>
#include <string>

namespace sb {

uint32_t average_start(size_t phases, std::optional<uint32_t> from) {
  return from ? *from : static_cast<uint32_t>(phases / 2);
}

PhaseAverage blocked_mean(const std::vector<double>& x) {
  PhaseAverage out;
  const size_t n = x.size();
  out.phases = static_cast<uint32_t>(n);
  double sum = 0;
  for (const double v : x)
    sum += v;
  out.mean = n > 0 ? sum / static_cast<double>(n) : NAN;
  out.error = NAN;
  if (n < 2) return out;
  for (size_t size = 1; size == 1 || n / size >= kLeastBlocks; size *= 2) {
    const size_t blocks = n / size;
    std::vector<double> means(blocks, 0.0);
    for (size_t b = 0; b < blocks; ++b) {
      for (size_t i = 0; i < size; ++i)
        means[b] += x[b * size + i];
      means[b] /= static_cast<double>(size);
    }
    double m = 0;
    for (const double v : means)
      m += v;
    m /= static_cast<double>(blocks);
    double squares = 0;
    for (const double v : means)
      squares += (v - m) * (v - m);
    const double error =
        std::sqrt(squares / static_cast<double>(blocks - 1) / static_cast<double>(blocks));
    if (!(error <= out.error)) out.error = error;  // the first, then the largest
  }
  return out;
}

bool is_phase_error(const std::string& name) {
  const std::string suffix = kErrorSuffix;
  return name.size() > suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<PhaseAverage> phase_averages(const std::vector<Observables>& phases, uint32_t start) {
  std::vector<PhaseAverage> out;
  if (phases.empty()) return out;
  for (const auto& [name, unused] : phases.front()) {
    if (is_phase_error(name)) continue;
    std::vector<double> x;
    for (size_t k = start; k < phases.size(); ++k) {
      for (const auto& [other, value] : phases[k]) {
        if (other == name && std::isfinite(value)) x.push_back(value);
      }
    }
    PhaseAverage a = blocked_mean(x);
    a.name = name;
    out.push_back(a);
  }
  return out;
}

}  // namespace sb
