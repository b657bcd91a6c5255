// Random draws as pure functions of (run seed, particle id, step, stream): no generator state
// lives in a thread or a particle slot, so a particle's random numbers do not depend on which
// thread ran it, in what order, or on which device. docs/determinism.md states the contract.
//
// One Philox call yields four 32-bit words. Step draws use them for four consecutive steps of
// one particle: step t takes word (t - base) mod 4 of the block that starts at step
// t - ((t - base) mod 4), where `base` is the first step the particle takes in the current
// phase (draw_base below). Every block start is a distinct step of that particle, so no counter
// is used twice. A thread that advances one particle step after step calls Philox once per
// four steps, and because `base` is where a particle starts its run, the threads of a warp that
// start their particles together stay in step with each other.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hostdev.hpp"
#include "core/philox.hpp"

namespace sb {

enum class DrawStream : uint32_t {
  kInit = 0,  // initial state of particle `id` (step word 0)
  kStep = 1,  // the per-step draw a sim may take
  // kStepExtra + i: block i of the extra draws of a step (StepDraw::block), for sims whose step
  // needs more than one word. The step itself is the counter's first word.
  kStepExtra = 2,
};

struct DrawKey {
  Philox4x32Key key;

  SB_HD static DrawKey from_seed(uint64_t seed) {
    return {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  }
};

SB_HD inline Philox4x32Output draw_block(DrawKey key, uint64_t id, DrawStream stream,
                                         uint32_t block_step) {
  return philox4x32_10({block_step, static_cast<uint32_t>(stream), static_cast<uint32_t>(id),
                        static_cast<uint32_t>(id >> 32)},
                       key.key);
}

// Selects without indexing, so that the four words stay in registers on the device.
SB_HD inline uint32_t select_word(const Philox4x32Output& w, uint32_t i) {
  return i == 0 ? w.w0 : i == 1 ? w.w1 : i == 2 ? w.w2 : w.w3;
}

// The integer form of "r < percent" for r = word * 100 / 2^32 uniform in [0, 100): the word is
// below ceil(percent / 100 * 2^32). Computed once on the host, so that the device decides with
// an integer comparison. At most 2^32 (100 %: always).
inline uint64_t percent_threshold(double percent) {
  const double t = std::ceil(percent / 100.0 * 4294967296.0);
  return t <= 0 ? 0 : t >= 4294967296.0 ? 4294967296ull : static_cast<uint64_t>(t);
}

// A uniform float in [0, 1) from the top 24 bits: exact, identical on host and device.
SB_HD inline float unit_float(uint32_t word) {
  return static_cast<float>(word >> 8) * (1.0f / 16777216.0f);
}

// The step draws of one particle, caching the current Philox block, and a word the sim may keep
// between that particle's steps (StepDraw::hint).
class StepDraws {
 public:
  SB_HD StepDraws(DrawKey key, uint64_t id, uint32_t base) : key_(key), id_(id), base_(base) {}

  SB_HD uint32_t at(uint32_t step) {
    const uint32_t lane = (step - base_) & 3u;
    const uint32_t block = step - lane;
    if (block != block_) {
      words_ = draw_block(key_, id_, DrawStream::kStep, block);
      block_ = block;
    }
    return select_word(words_, lane);
  }

  SB_HD uint32_t& hint() { return hint_; }

  SB_HD Philox4x32Output extra(uint32_t step, uint32_t i) const {
    return draw_block(key_, id_,
                      static_cast<DrawStream>(static_cast<uint32_t>(DrawStream::kStepExtra) + i),
                      step);
  }

 private:
  static constexpr uint32_t kNoBlock = 0xFFFFFFFFu;  // steps stay below 2^31 (RunConfig limits)

  DrawKey key_;
  uint64_t id_;
  uint32_t base_;
  uint32_t block_ = kNoBlock;
  Philox4x32Output words_{};
  uint32_t hint_ = 0;
};

// What a sim's step function sees: the draw of the step being taken.
class StepDraw {
 public:
  SB_HD StepDraw(StepDraws& draws, uint32_t step) : draws_(draws), step_(step) {}
  SB_HD uint32_t u32() { return draws_.at(step_); }

  // Extra block i of this step (i from 0): four more words, computed afresh at every call.
  SB_HD Philox4x32Output block(uint32_t i) const { return draws_.extra(step_, i); }

  // The step being taken, for sims whose time depends on it (air: the phase's end time).
  SB_HD uint32_t step() const { return step_; }

  // A word kept for the sim from the particle's previous step (0 at its first step of a run): a
  // hint for this step, such as where to look something up first, never state. A step's result
  // must not depend on it, since another engine may start the particle afresh at any step.
  SB_HD uint32_t& hint() { return draws_.hint(); }

 private:
  StepDraws& draws_;
  uint32_t step_;
};

}  // namespace sb
