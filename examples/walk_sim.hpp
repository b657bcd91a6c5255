// walk: the example sim of the tutorial "Add a sim" (docs/design.md §9). Walkers step left or
// right on a line at random, split with a fixed chance per step, and die at the ends of a strip.
// Integers only, so that host and device agree without care for rounding.
#pragma once

#include <cstdint>

#include "core/declared_parameter.hpp"
#include "core/draws.hpp"
#include "core/hostdev.hpp"
#include "core/particle.hpp"
#include "core/run_config.hpp"
#include "sims/mvp/mvp.hpp"

namespace sb {

struct WalkSim {
  // The physics, then the tag every particle carries (ids, step counters, status). Fields are
  // uint32_t, float or double (what core/digest.hpp hashes); 28 bytes of 4-byte fields have no
  // padding, so that digests and copies see every byte.
  struct Particle {
    uint32_t x;       // the cell, 1 to kEnd - 1 while inside the strip
    uint32_t splits;  // children this walker has had
    ParticleTag tag;

    template <class F>
    SB_HD void visit(F&& f) const {
      f("x", x);
      f("splits", splits);
      tag.visit(f);
    }
  };

  // What the step function needs, computed once on the host from the run's configuration.
  struct Params {
    uint32_t split_threshold;  // a step splits when its draw's high word is below this
  };

  static constexpr uint32_t kEnd = 32;  // a walker in cell 0 or kEnd has left the strip: it dies

  static constexpr const char* kName = "walk";
  static constexpr const char* kDescription =
      "example: walkers step at random on a line, split by chance, die at its ends";
  // The parameters it reads: declarations it shares with mvp (sims/mvp/mvp.hpp); a sim with a
  // parameter of its own declares it as mvp declares split_chance.
  static DeclaredParameters parameters() { return {&steps_parameter(), &mvp::split_chance()}; }

  static Params params(const RunConfig& c) {
    // percent_threshold is at most 2^32 (100 %); one in 2^16 is fine enough for an example.
    return {static_cast<uint32_t>(percent_threshold(mvp::split_chance().real(c)) >> 16)};
  }

  static PhasePlan phases(const RunConfig& c) {
    return {1, static_cast<uint32_t>(steps_parameter().whole(c))};
  }

  // Spread evenly over the cells of the strip; the initial draw is not needed.
  static Particle initial(uint64_t index, const Params&, DrawKey) {
    Particle p{1 + static_cast<uint32_t>(index % (kEnd - 1)), 0, {}};
    p.tag = ParticleTag::make(index, 0);
    return p;
  }

  // One step: the draw's low bit picks the direction, its high 16 bits decide a split. A child
  // starts where its parent was before the step (inside the strip); advance() gives it its id.
  SB_HD static Fate step(Particle& p, Particle& child, const Params& prm, StepDraw& draw) {
    const uint32_t r = draw.u32();
    const uint32_t from = p.x;
    p.x = (r & 1u) != 0 ? from + 1 : from - 1;
    if (p.x == 0 || p.x == kEnd) return Fate::kDied;
    if ((r >> 16) < prm.split_threshold) {
      ++p.splits;
      child = Particle{from, 0, {}};
      return Fate::kSpawned;
    }
    return Fate::kAlive;
  }

  SB_HD static bool simulates_children(const Params&) { return true; }
};

}  // namespace sb
