#include "ranks/rebalance.hpp"

#include <algorithm>
#include <numeric>

namespace sb::ranks {

std::vector<uint64_t> shares(uint64_t total, int size) {
  std::vector<uint64_t> out(size, total / size);
  for (uint64_t r = 0; r < total % size; ++r)
    ++out[r];
  return out;
}

uint64_t share_start(uint64_t total, int size, int r) {
  const uint64_t base = total / size, extra = total % size;
  return base * r + std::min<uint64_t>(r, extra);
}

uint64_t RebalancePlan::moved() const {
  uint64_t n = 0;
  for (size_t from = 0; from < moves.size(); ++from) {
    for (size_t to = 0; to < moves[from].size(); ++to)
      n += from == to ? 0 : moves[from][to];
  }
  return n;
}

double imbalance(const std::vector<uint64_t>& counts) {
  const uint64_t total = std::accumulate(counts.begin(), counts.end(), uint64_t{0});
  if (total == 0) return 1;
  const uint64_t most = *std::max_element(counts.begin(), counts.end());
  return static_cast<double>(most) * static_cast<double>(counts.size()) /
         static_cast<double>(total);
}

RebalancePlan rebalance(const std::vector<uint64_t>& counts) {
  const int size = static_cast<int>(counts.size());
  const uint64_t total = std::accumulate(counts.begin(), counts.end(), uint64_t{0});
  RebalancePlan plan;
  plan.moves.assign(size, std::vector<uint64_t>(size, 0));
  const double mean = static_cast<double>(total) / size;
  plan.needed = std::any_of(counts.begin(), counts.end(), [mean](uint64_t n) {
    return static_cast<double>(n) > mean * (1 + kMostAboveMean);
  });
  plan.before = plan.after = imbalance(counts);
  if (!plan.needed) {
    for (int r = 0; r < size; ++r)
      plan.moves[r][r] = counts[r];
    return plan;
  }
  plan.after = imbalance(shares(total, size));
  // Rank `from` holds [start, start + counts[from]) of the order; rank `to` receives its share.
  uint64_t start = 0;
  for (int from = 0; from < size; ++from) {
    const uint64_t end = start + counts[from];
    for (int to = 0; to < size; ++to) {
      const uint64_t lo = share_start(total, size, to), hi = share_start(total, size, to + 1);
      const uint64_t a = std::max(start, lo), b = std::min(end, hi);
      if (a < b) plan.moves[from][to] = b - a;
    }
    start = end;
  }
  return plan;
}

}  // namespace sb::ranks
