// slab: the out-of-tree project's own sim (docs/guide.md, "Your own sim"). One-speed neutrons in a
// slab of multiplying material, 0 <= x <= width in mean free paths. A step is a flight to the next
// collision (a distance drawn from exp(-s)), where the neutron leaks out of the slab, is
// absorbed, causes a fission (it and one new neutron leave isotropically) or scatters
// isotropically. Leakage and absorption kill; fission splits. Doubles, with the deterministic
// logarithm of core/det_math.hpp and no fused operations (the installed package's flags), so
// that host and device give the same bits.
#pragma once

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "core/declared_parameter.hpp"
#include "core/det_math.hpp"
#include "core/draws.hpp"
#include "core/errors.hpp"
#include "core/hostdev.hpp"
#include "core/particle.hpp"
#include "core/run_config.hpp"

namespace slab {

inline const sb::DeclaredParameter& width() {
  static const sb::DeclaredParameter p = sb::real_parameter(
      "slab_width", "--slab-width", "slab: the slab's width in mean free paths (default 8)",
      "slab width (mean free paths)", 0.01, 1e6, 8.0);
  return p;
}

inline const sb::DeclaredParameter& fission_chance() {
  static const sb::DeclaredParameter p = sb::real_parameter(
      "fission_chance", "--fission-chance",
      "slab: chance that a collision is a fission, percent (default 30)", "fission chance (%)", 0,
      100, 30.0);
  return p;
}

inline const sb::DeclaredParameter& absorb_chance() {
  static const sb::DeclaredParameter p = sb::real_parameter(
      "absorb_chance", "--absorb-chance",
      "slab: chance that a collision absorbs the neutron, percent (default 25)",
      "absorption chance (%)", 0, 100, 25.0);
  return p;
}

}  // namespace slab

namespace sb {

struct SlabSim {
  // 8-byte fields first, then 4-byte ones to a multiple of 8 bytes: no padding, so that digests
  // and copies see every byte.
  struct Particle {
    double x;     // position, mean free paths from the slab's left face
    double mu;    // direction cosine
    uint32_t collisions;
    ParticleTag tag;

    template <class F>
    SB_HD void visit(F&& f) const {
      f("x", x);
      f("mu", mu);
      f("collisions", collisions);
      tag.visit(f);
    }
  };

  struct Params {
    double width;
    uint32_t absorb_below;   // a collision's event word below this: absorbed
    uint32_t fission_below;  // else below this: fission; else scatter
  };

  static constexpr const char* kName = "slab";
  static constexpr const char* kDescription =
      "example project's sim: neutrons in a multiplying slab fly, scatter, fission, are absorbed "
      "and leak";
  static DeclaredParameters parameters() {
    return {&steps_parameter(), &slab::width(), &slab::fission_chance(), &slab::absorb_chance()};
  }

  static Params params(const RunConfig& c) {
    const double absorb = slab::absorb_chance().real(c);
    const double fission = slab::fission_chance().real(c);
    if (absorb + fission > 100) {
      throw UsageError(fmt::format("--absorb-chance {} with --fission-chance {}: the chances of a "
                                   "collision's events add up to at most 100 %",
                                   absorb, fission));
    }
    // A threshold of 2^32 (100 %) kept to a word: all but the largest word are below it.
    const auto word = [](double percent) {
      return static_cast<uint32_t>(std::min<uint64_t>(percent_threshold(percent), 0xFFFFFFFFu));
    };
    return {slab::width().real(c), word(absorb), word(absorb + fission)};
  }

  static PhasePlan phases(const RunConfig& c) {
    return {1, static_cast<uint32_t>(steps_parameter().whole(c))};
  }

  // Spread evenly over the slab, heading left and right by turns.
  static Particle initial(uint64_t index, const Params& prm, DrawKey) {
    const double at = (static_cast<double>(index % 1024) + 0.5) / 1024.0;
    Particle p{at * prm.width, index % 2 == 0 ? 1.0 : -1.0, 0, {}};
    p.tag = ParticleTag::make(index, 0);
    return p;
  }

  SB_HD static Fate step(Particle& p, Particle& child, const Params& prm, StepDraw& draw) {
    const Philox4x32Output w = draw.block(0);
    const double flight = -det_log(unit_open_closed(w.w0, w.w1));
    p.x = p.x + p.mu * flight;
    if (p.x < 0.0 || p.x > prm.width) return Fate::kDied;  // leaked
    ++p.collisions;
    if (w.w2 < prm.absorb_below) return Fate::kDied;
    p.mu = signed_unit(w.w3);
    if (w.w2 < prm.fission_below) {
      const Philox4x32Output v = draw.block(1);
      child = Particle{p.x, signed_unit(v.w0), 0, {}};
      return Fate::kSpawned;
    }
    return Fate::kAlive;
  }

  SB_HD static bool simulates_children(const Params&) { return true; }
};

}  // namespace sb
