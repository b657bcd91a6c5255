// toy (seed 003 §3.1): particles bounce in the box and split at every floor bounce.
#pragma once

#include <cstdint>

#include "core/errors.hpp"
#include "core/run_config.hpp"
#include "sims/toy/box.hpp"

namespace sb {

struct ToySim {
  using Particle = box::Particle;

  enum class Layout : uint32_t {
    kCenter,  // all at (250, 250), at rest
    kColumn,  // x = 250, y spread evenly over [1, 496): varied bounce times (seed §5.1.1)
  };

  struct Params {
    uint64_t init_n;
    Layout layout;
  };

  static constexpr const char* kName = "toy";
  static constexpr const char* kDescription =
      "2D bouncing particles that split at every floor bounce (seed 003 §3.1)";
  static constexpr const char* kParameters[] = {"steps", "layout"};

  static Params params(const RunConfig& c) {
    if (c.layout != "center" && c.layout != "column") {
      throw UsageError("--layout: '" + c.layout + "' is not a layout; accepted: center, column");
    }
    return {c.init_n, c.layout == "center" ? Layout::kCenter : Layout::kColumn};
  }

  static PhasePlan phases(const RunConfig& c) { return {1, c.steps}; }

  static Particle initial(uint64_t index, const Params& prm, DrawKey) {
    const double spacing = 495.0 / static_cast<double>(prm.init_n);
    Particle p = prm.layout == Layout::kCenter
                     ? box::at_rest(250.0f, 250.0f)
                     : box::at_rest(250.0f, static_cast<float>(1.0 + spacing * static_cast<double>(index)));
    p.tag = ParticleTag::make(index, 0);
    return p;
  }

  SB_HD static Fate step(Particle& p, Particle& child, const Params&, StepDraw&) {
    box::fall(p);
    const bool floor = box::bounce_vertical(p);
    if (floor) box::split(p, child);
    box::move_horizontal(p);
    return floor ? Fate::kSpawned : Fate::kAlive;
  }

  SB_HD static bool simulates_children(const Params&) { return true; }
};

}  // namespace sb
