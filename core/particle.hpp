// What every particle carries besides its physics, and the one wrapper through which every
// engine advances a particle: the sim's step function does physics only; ids, step counters and
// death marks are kept here, once.
//
// A sim is a type with (see sims/toy/toy.hpp for a complete one, examples/walk_sim.hpp for a
// small one; core/sim_interface.hpp checks these at compile time, wherever a SimList lists it):
//   using Particle = ...;   // a struct with a member `ParticleTag tag` and a `visit(f)` that
//                           // calls f(name, value) for every field, tag included
//   using Params = ...;     // trivially copyable; kernels take it by value
//   static constexpr const char* kName, *kDescription;
//   static DeclaredParameters parameters();  // its parameters (core/declared_parameter.hpp)
//   static Params params(const RunConfig&);   // both, or a Setup built once per run that
//   static PhasePlan phases(const RunConfig&);  // gives them (core/sim_state.hpp)
//   static Particle initial(uint64_t index, const Params&, DrawKey);
//   SB_HD static Fate step(Particle& p, Particle& child, const Params&, StepDraw&);
//   SB_HD static bool simulates_children(const Params&);
//
// A sim whose steps are not of one length (air: a step is one random flight) ends a particle's
// phase early: its step returns Fate::kPhaseEnd once the particle's clock reaches the phase's end
// time, and advance() moves it to the window's end. The steps it took are then fewer than the
// window's: such a sim defines steps_in_phase(const Particle&, PhaseWindow) in its namespace,
// found by argument-dependent lookup before the default below.
#pragma once

#include <cstdint>

#include "core/draws.hpp"
#include "core/hash.hpp"
#include "core/hostdev.hpp"

namespace sb {

// kPhaseEnd: alive, and done with this phase (its clock reached the phase's end time).
enum class Fate : uint32_t { kAlive, kSpawned, kDied, kPhaseEnd };

// kEmpty is zero so that zeroed device memory reads as "no particle here yet": GPU schedulers
// publish a particle by storing kAlive last (schedulers/device/slots.cuh). A slot whose particle
// a GPU scheduler moved to another slot mid-phase reads kEmpty again (pool_agent.cuh).
enum ParticleStatus : uint32_t { kEmpty = 0, kAlive = 1, kDead = 2 };

// 20 bytes of 4-byte words, so that particles of 4- and 8-byte fields pack without padding.
struct ParticleTag {
  uint32_t id_lo;
  uint32_t id_hi;
  uint32_t step;        // the next step this particle takes (after death: one past its last)
  uint32_t first_step;  // the first step it takes: 0 for initial particles, birth step + 1 after
  uint32_t status;      // ParticleStatus

  SB_HD uint64_t id() const { return (uint64_t{id_hi} << 32) | id_lo; }

  SB_HD static ParticleTag make(uint64_t id, uint32_t first_step) {
    return {static_cast<uint32_t>(id), static_cast<uint32_t>(id >> 32), first_step, first_step,
            kAlive};
  }

  template <class F>
  SB_HD void visit(F&& f) const {
    f("id_lo", id_lo);
    f("id_hi", id_hi);
    f("step", step);
    f("first_step", first_step);
    f("status", status);
  }
};

// Steps [start, end) of one phase; all particles of the phase end at `end` or dead.
struct PhaseWindow {
  uint32_t start;
  uint32_t end;
};

// A sim's time: `count` phases of `steps` steps each (toy and mvp have one phase).
struct PhasePlan {
  uint32_t count;
  uint32_t steps;

  PhaseWindow window(uint32_t phase) const { return {phase * steps, (phase + 1) * steps}; }
};

SB_HD inline bool is_alive(const ParticleTag& t) {
  return t.status == kAlive;
}

// Ready to take a step of the phase (alive and not yet at its end).
SB_HD inline bool has_work(const ParticleTag& t, PhaseWindow w) {
  return t.status == kAlive && t.step < w.end;
}

// The step from which a particle's draw blocks count in this phase (core/draws.hpp).
SB_HD inline uint32_t draw_base(const ParticleTag& t, PhaseWindow w) {
  return t.first_step > w.start ? t.first_step : w.start;
}

// The steps p took in window w, counted once it ended there (alive at the end or dead): every
// step of the window from its base, for sims whose particles step through the whole window.
template <class Particle>
SB_HD uint32_t steps_in_phase(const Particle& p, PhaseWindow w) {
  return p.tag.step - draw_base(p.tag, w);
}

// Advances p by its next step. On kSpawned, `child` is a complete particle that starts at the
// following step (or, where the sim does not simulate children, is born already finished).
// kPhaseEnd moves p to the end of the window and is returned as kAlive: to an engine, a particle
// that ended its phase early looks like one that took every step of it.
template <class Sim>
SB_HD Fate advance(typename Sim::Particle& p, typename Sim::Particle& child,
                   const typename Sim::Params& prm, StepDraws& draws, PhaseWindow w) {
  const uint32_t t = p.tag.step;
  StepDraw draw(draws, t);
  const Fate fate = Sim::step(p, child, prm, draw);
  if (fate == Fate::kPhaseEnd) {
    p.tag.step = w.end;
    return Fate::kAlive;
  }
  p.tag.step = t + 1;
  if (fate == Fate::kDied) {
    p.tag.status = kDead;
  } else if (fate == Fate::kSpawned) {
    child.tag =
        ParticleTag::make(child_id(p.tag.id(), t), Sim::simulates_children(prm) ? t + 1 : w.end);
  }
  return fate;
}

// Runs p to the end of the phase (or its death), handing each child to on_spawn(child).
template <class Sim, class OnSpawn>
SB_HD void run_to_end(typename Sim::Particle& p, const typename Sim::Params& prm, DrawKey key,
                      PhaseWindow w, OnSpawn&& on_spawn) {
  StepDraws draws(key, p.tag.id(), draw_base(p.tag, w));
  typename Sim::Particle child;
  while (has_work(p.tag, w)) {
    if (advance<Sim>(p, child, prm, draws, w) == Fate::kSpawned) on_spawn(child);
  }
}

}  // namespace sb
