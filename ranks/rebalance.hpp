// How the particles are shared between ranks (docs/design.md §10): at the start by id, and at
// every phase boundary where a rank holds more than kMostAboveMean above the mean. Both are pure
// functions of the counts, so that every rank computes the same plan with no message of its own.
#pragma once

#include <cstdint>
#include <vector>

namespace sb::ranks {

// A rank may hold this fraction above the mean live population before the ranks rebalance.
inline constexpr double kMostAboveMean = 0.05;

// Equal shares of `total` over `size` ranks, the first total % size one more.
std::vector<uint64_t> shares(uint64_t total, int size);

// The first index of rank r's share: the sum of the shares before it.
uint64_t share_start(uint64_t total, int size, int r);

// moves[from][to]: the particles rank `from` sends to rank `to` (moves[r][r] stay). The particles
// are taken in rank order, each rank's in its own order, and rank r receives the r-th equal share
// of that order: every rank keeps what of its range lies in its share, and a rank's particles
// arrive in the order of their ranks.
struct RebalancePlan {
  std::vector<std::vector<uint64_t>> moves;
  bool needed = false;           // some rank held more than kMostAboveMean above the mean
  double before = 1, after = 1;  // imbalance() of the counts, and of the counts the plan leaves

  uint64_t moved() const;  // particles that change rank
};

// The most particles on a rank over the mean: 1 where balanced (or where no rank holds any).
double imbalance(const std::vector<uint64_t>& counts);

RebalancePlan rebalance(const std::vector<uint64_t>& counts);

}  // namespace sb::ranks
