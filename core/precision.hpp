// Floating-point precision as a compile-time sim variant (--precision; docs/design.md §4,
// docs/physics.md, "Reduced precision"). A sim family that offers it lists one variant per
// precision (core/sim_list.hpp), each a sim of its own, with its own particle record and digest,
// compiled into every scheduler and both CPU engines; the CPU engines compile the same step, and
// IEEE single arithmetic without contraction (the build turns off FMA on both sides) rounds alike
// on host and device, so every engine gives one digest per precision.
//
// A precision names two types: Coordinate for what a particle accumulates from many small
// increments over a run (positions, clocks), and Real for what a step computes afresh
// (velocities, momenta, energies, collision tables). Sums over particles (observables, moments,
// charge deposits) are kept in fixed point or double in every precision.
#pragma once

#include <cstddef>
#include <string>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"

namespace sb::precision {

// Every quantity in double: the sims as they were before reduced precision, and their digests.
struct Double {
  using Coordinate = double;
  using Real = double;
  static constexpr const char* kName = "double";
};

// Coordinates in double, what a step computes in float: an increment far below a coordinate's
// float rounding (a pic step moves an electron 10^-7 m at 2.5 m, where a float's ulp is
// 2.4 10^-7 m) is kept.
struct Mixed {
  using Coordinate = double;
  using Real = float;
  static constexpr const char* kName = "mixed";
};

// Every quantity of a particle in float.
struct Single {
  using Coordinate = float;
  using Real = float;
  static constexpr const char* kName = "single";
};

// --precision: double (the default), mixed or single.
const DeclaredParameter& parameter();

// The index in the family's Variants of SimOf<P> for the run's --precision P.
template <class Variants, template <class> class SimOf>
size_t variant_of(const RunConfig& c) {
  const std::string p = parameter().text(c);
  if (p == Mixed::kName) return Variants::template index_of<SimOf<Mixed>>();
  if (p == Single::kName) return Variants::template index_of<SimOf<Single>>();
  return Variants::template index_of<SimOf<Double>>();
}

// UsageError where --precision is other than double for a run whose variant has only double
// (`instead` says why, "the Poisson field is solved in double").
void refuse_reduced(const RunConfig& c, const char* instead);

}  // namespace sb::precision
