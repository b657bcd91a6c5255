// toy (seed 003 §3.1): particles bounce in the box and split at every floor bounce.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/errors.hpp"
#include "core/image.hpp"
#include "core/run_config.hpp"
#include "sims/toy/box.hpp"

namespace sb {
namespace toy {

inline const DeclaredParameter& layout() {
  static const DeclaredParameter p = choice_parameter(
      "layout", "--layout", "toy initial layout: center or column (default center)",
      "initial layout", {"center", "column"}, "center");
  return p;
}

// Steps per phase, each phase end a frame of `run --frames` (and a boundary where the ranks of a
// run rebalance); not given: one phase, or at most 100 frames with --frames. Phases change
// nothing but when pictures are taken: toy draws no random numbers and nothing dies.
inline const DeclaredParameter& frame_every() {
  static const DeclaredParameter p = recorded_when_given(with_role(
      whole_parameter("frame_every", "--frame-every",
                      "toy: steps per phase, each phase end a frame of --frames; a divisor of "
                      "--steps (default: one phase, or at most 100 frames with --frames)",
                      "steps per frame", 1, kMaxSteps, std::nullopt),
      ParameterRole::kBookkeeping));
  return p;
}

inline constexpr int kPixels = 500;     // a pixel per unit of the box
inline constexpr double kDarkest = 64;  // particles in a pixel drawn at the darkest shade

// Particles per pixel, [0] of weight +1 and [1] of weight -1; row 0 is the top of the box.
inline std::vector<std::array<uint32_t, 2>> pixel_counts(const std::vector<box::Particle>& ps) {
  std::vector<std::array<uint32_t, 2>> counts(kPixels * kPixels, {0, 0});
  const auto pixel = [](float v) { return std::clamp(static_cast<int>(v), 0, kPixels - 1); };
  for (const box::Particle& p : ps) {
    ++counts[(kPixels - 1 - pixel(p.y)) * kPixels + pixel(p.x)][p.w < 0.0f ? 1 : 0];
  }
  return counts;
}

// From `pale` for one particle to `dark` for kDarkest or more, on a log scale that is the same in
// every frame, so that an animation's shades compare.
inline void shade(uint32_t n, const uint8_t (&pale)[3], const uint8_t (&dark)[3], uint8_t* rgb) {
  const double t = std::min(1.0, std::log(static_cast<double>(n)) / std::log(kDarkest));
  for (int c = 0; c < 3; ++c) {
    rgb[c] = static_cast<uint8_t>(pale[c] + t * (dark[c] - pale[c]) + 0.5);
  }
}

}  // namespace toy

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
  static DeclaredParameters parameters() {
    return {&steps_parameter(), &toy::layout(), &toy::frame_every()};
  }
  // Runs as phases of --frame-every steps on request, each phase end a frame (--frames).
  static const DeclaredParameter& frame_every() { return toy::frame_every(); }
  static constexpr bool kParticlesDie = false;  // toy only moves its particles

  static Params params(const RunConfig& c) {
    // Phases share one length (PhasePlan), so frames must split the steps evenly.
    const uint64_t steps = steps_parameter().whole(c);
    const uint64_t every = toy::frame_every().given(c) ? toy::frame_every().whole(c) : steps;
    if (steps % every != 0) {
      throw UsageError("--frame-every: " + std::to_string(every) + " does not divide --steps " +
                       std::to_string(steps) + "; accepted: a divisor of " + std::to_string(steps));
    }
    return {c.init_n, toy::layout().text(c) == "center" ? Layout::kCenter : Layout::kColumn};
  }

  static PhasePlan phases(const RunConfig& c) {
    const auto steps = static_cast<uint32_t>(steps_parameter().whole(c));
    const auto every =
        toy::frame_every().given(c) ? static_cast<uint32_t>(toy::frame_every().whole(c)) : steps;
    return {steps / every, every};
  }

  static Particle initial(uint64_t index, const Params& prm, DrawKey) {
    const double spacing = 495.0 / static_cast<double>(prm.init_n);
    Particle p =
        prm.layout == Layout::kCenter
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

  // The particles as points on white, high y at the top: blue where the weight is +1, red where
  // it is -1 (falling upwards), darker where more share a pixel.
  static Image picture(const std::vector<Particle>& ps) {
    static constexpr uint8_t kPaleBlue[3] = {150, 180, 235}, kDarkBlue[3] = {10, 30, 130};
    static constexpr uint8_t kPaleRed[3] = {240, 165, 140}, kDarkRed[3] = {140, 15, 10};
    Image img{toy::kPixels, toy::kPixels,
              std::vector<uint8_t>(toy::kPixels * toy::kPixels * 3, 255)};
    const std::vector<std::array<uint32_t, 2>> counts = toy::pixel_counts(ps);
    for (size_t i = 0; i < counts.size(); ++i) {
      const auto [plus, minus] = counts[i];
      if (plus >= minus && plus > 0) toy::shade(plus, kPaleBlue, kDarkBlue, &img.rgb[3 * i]);
      if (minus > plus) toy::shade(minus, kPaleRed, kDarkRed, &img.rgb[3 * i]);
    }
    return img;
  }
};

}  // namespace sb
