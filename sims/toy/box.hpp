// The 2D box of seed 003 §3.1 that toy and mvp share: float32 particles in [0,500]^2 under
// gravity, reflected at the walls, with the seed's split rule. Constants are the seed's, so
// timings compare with its figures.
#pragma once

#include "core/hostdev.hpp"
#include "core/particle.hpp"

namespace sb::box {

inline constexpr float kSize = 500.0f;
inline constexpr float kDt = 0.01f;
inline constexpr float kGravity = 9.82f;
inline constexpr float kKick = 10.0f;  // a split moves the parent's vx this much further from 0

struct alignas(8) Particle {
  float x, y, vx, vy;
  float w;  // weight: +1 or -1; it scales gravity and flips at the side walls
  ParticleTag tag;

  template <class F>
  SB_HD void visit(F&& f) const {
    f("x", x);
    f("y", y);
    f("vx", vx);
    f("vy", vy);
    f("w", w);
    tag.visit(f);
  }
};
static_assert(sizeof(Particle) == 40, "no padding: digests and copies see every byte");

SB_HD inline Particle at_rest(float x, float y) {
  return {x, y, 0.0f, 0.0f, 1.0f, {}};
}

// Gravity and vertical motion.
SB_HD inline void fall(Particle& p) {
  p.vy -= kGravity * kDt * p.w;
  p.y += p.vy * kDt;
}

// Reflects at the floor and the ceiling; true for a floor bounce.
SB_HD inline bool bounce_vertical(Particle& p) {
  if (p.y <= 0.0f) {
    p.y = -p.y;
    p.vy = -p.vy;
    return true;
  }
  if (p.y >= kSize) {
    p.y = kSize - (p.y - kSize);
    p.vy = -p.vy;
  }
  return false;
}

// The seed's split: the parent's vx moves kKick further from zero, then the child takes the
// parent's y, vy and w, a vx 2*kKick back towards (and past) zero, and an x one step along it.
SB_HD inline void split(Particle& p, Particle& child) {
  p.vx = p.vx >= 0.0f ? p.vx + kKick : p.vx - kKick;
  child.vx = p.vx >= 0.0f ? p.vx - 2.0f * kKick : p.vx + 2.0f * kKick;
  child.x = p.x + child.vx * kDt;
  child.y = p.y;
  child.vy = p.vy;
  child.w = p.w;
}

// Horizontal motion; a side wall reflects x and flips vx and the weight.
SB_HD inline void move_horizontal(Particle& p) {
  p.x += p.vx * kDt;
  if (p.x <= 0.0f) {
    p.x = -p.x;
    p.vx = -p.vx;
    p.w = -p.w;
  } else if (p.x >= kSize) {
    p.x = kSize - (p.x - kSize);
    p.vx = -p.vx;
    p.w = -p.w;
  }
}

}  // namespace sb::box
