// mvp (seed 003 §3.3): the toy's motion without the floor split; instead a particle spawns a
// child with probability split_chance percent at every step (same child rule). Variant
// (§5.2.2): spawned particles are stored but never simulated.
#pragma once

#include <cstdint>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"
#include "sims/toy/box.hpp"

namespace sb {
namespace mvp {

inline const DeclaredParameter& split_chance() {
  static const DeclaredParameter p = real_parameter(
      "split_chance", "--split-chance", "mvp: chance to split per step, percent (default 0.02)",
      "split chance per step (%)", 0, 100, 0.02);
  return p;
}

inline const DeclaredParameter& skip_spawned() {
  static const DeclaredParameter p = switch_parameter(
      "skip_spawned", "--skip-spawned", "mvp: store spawned particles but do not simulate them",
      "spawned particles not simulated");
  return p;
}

}  // namespace mvp

struct MvpSim {
  using Particle = box::Particle;

  struct Params {
    uint64_t split_threshold;  // a step splits when its draw is below this (percent_threshold)
    bool simulate_children;
  };

  static constexpr const char* kName = "mvp";
  static constexpr const char* kDescription =
      "2D box, each particle splits with a fixed chance per step (seed 003 §3.3)";
  static constexpr bool kParticlesDie = false;  // a particle only moves and splits
  static DeclaredParameters parameters() {
    return {&steps_parameter(), &mvp::split_chance(), &mvp::skip_spawned()};
  }

  static Params params(const RunConfig& c) {
    return {percent_threshold(mvp::split_chance().real(c)), !mvp::skip_spawned().on(c)};
  }

  static PhasePlan phases(const RunConfig& c) {
    return {1, static_cast<uint32_t>(steps_parameter().whole(c))};
  }

  // Uniform in [1, 499)^2, at rest.
  static Particle initial(uint64_t index, const Params&, DrawKey key) {
    const Philox4x32Output w = draw_block(key, index, DrawStream::kInit, 0);
    Particle p = box::at_rest(1.0f + 498.0f * unit_float(w.w0), 1.0f + 498.0f * unit_float(w.w1));
    p.tag = ParticleTag::make(index, 0);
    return p;
  }

  SB_HD static Fate step(Particle& p, Particle& child, const Params& prm, StepDraw& draw) {
    box::fall(p);
    box::bounce_vertical(p);
    const bool splits = draw.u32() < prm.split_threshold;
    if (splits) box::split(p, child);
    box::move_horizontal(p);
    return splits ? Fate::kSpawned : Fate::kAlive;
  }

  SB_HD static bool simulates_children(const Params& prm) { return prm.simulate_children; }
};

}  // namespace sb
