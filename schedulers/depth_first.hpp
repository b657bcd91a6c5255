// The CPU engines' way through a phase: a particle of the vector runs to the end of the phase,
// then its descendants, depth first. A child waits on a stack rather than in the vector, and
// ends in the slot of a particle that this runner saw die in the phase, in a new slot where there
// is none, or in no slot if it died: memory follows the live population, not the particles the
// phase held (docs/performance.md, "Slots and the live population").
#pragma once

#include <vector>

#include "core/memory.hpp"
#include "core/particle.hpp"
#include "schedulers/host_driver.hpp"

namespace sb {

// `Slots` counts the slots in use for the engine: claim() at a birth (false past the capacity:
// the child is dropped, and the engine must fail the run), release() when a child ends without
// taking a new slot, append(p) for a survivor that needs one.
template <class Sim>
class DepthFirst {
 public:
  using Particle = typename Sim::Particle;

  DepthFirst(std::vector<Particle>& ps, const HostPhase<Sim>& ph) : ps_(ps), ph_(ph) {}

  // Runs the particle in slot i and every descendant to the end of the phase. One call of
  // run_to_end serves them all: with two, the compiler stopped inlining the sim's step, and
  // cpu-serial took markedly longer on mvp (docs/performance.md, "Slots and the live population").
  template <class Slots>
  void run_slot(size_t i, Slots& slots) {
    Particle p = ps_[i];
    for (bool from_slot = true;; from_slot = false) {
      run_to_end<Sim>(p, ph_.params, ph_.key, ph_.window, [&](const Particle& child) {
        if (!slots.claim()) return;
        make_room(waiting_, waiting_.size() + 1, ph_.capacity, "the children waiting to run");
        waiting_.push_back(child);
      });
      if (from_slot) {
        ps_[i] = p;
        if (!is_alive(p.tag)) dead_slots_.push_back(i);
      } else {
        place(p, slots);
      }
      if (waiting_.empty()) return;
      p = waiting_.back();
      waiting_.pop_back();
    }
  }

  // The particles this runner took out of the vector's sight: gone and gone_steps.
  const HostTally& tally() const { return tally_; }

 private:
  // A child at the end of the phase: a survivor overwrites a dead particle, which is counted
  // now, as nothing will show it later.
  template <class Slots>
  void place(const Particle& child, Slots& slots) {
    const bool alive = is_alive(child.tag);
    if (alive && dead_slots_.empty()) return slots.append(child);
    slots.release();
    if (!alive) return count_gone(child);
    Particle& slot = ps_[dead_slots_.back()];
    dead_slots_.pop_back();
    count_gone(slot);
    slot = child;
  }

  void count_gone(const Particle& p) {
    ++tally_.gone;
    tally_.gone_steps += steps_in_phase(p, ph_.window);
  }

  std::vector<Particle>& ps_;
  const HostPhase<Sim>& ph_;
  std::vector<Particle> waiting_;   // children born and not yet run, the last born on top
  std::vector<size_t> dead_slots_;  // slots of particles this runner ran that died in the phase
  HostTally tally_;
};

}  // namespace sb
