// A sim's observables averaged over the phases after its relaxation, each with its standard
// error: what `run` prints and its JSON's `averages` hold (docs/physics.md, "Averages and their
// errors", says why the error is taken from blocks of phases).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/run_result.hpp"

namespace sb {

struct PhaseAverage {
  std::string name;
  double mean = 0;
  double error = 0;     // one standard error; NaN from fewer than two phases
  uint32_t phases = 0;  // with a finite value
};

// The first phase averaged: `from`, or the second half of the phases when not given.
uint32_t average_start(size_t phases, std::optional<uint32_t> from);

// Every observable of the first phase, averaged over phases [start, end) where it is finite, but
// a phase's own standard errors (names ending in kErrorSuffix), which the blocked error replaces.
inline constexpr const char* kErrorSuffix = "_error";
bool is_phase_error(const std::string& name);  // ends in kErrorSuffix
std::vector<PhaseAverage> phase_averages(const std::vector<Observables>& phases, uint32_t start);

// The mean of `x` and its standard error from the means of consecutive blocks: block sizes 1, 2,
// 4, ... while at least kLeastBlocks blocks remain, the largest error of them (successive phases
// of one swarm are correlated, which blocks longer than the correlation average out).
inline constexpr size_t kLeastBlocks = 8;
PhaseAverage blocked_mean(const std::vector<double>& x);

}  // namespace sb
