// breadth-first: the example scheduler of the tutorial "Add a scheduler" (docs/design.md §8). A
// host engine that sweeps over the particles again and again, advancing each by one step per
// sweep, where cpu-serial runs each particle to the end of the phase at once. Children born in
// a sweep wait for the next. It gives cpu-serial's digest because a particle's draws are a pure
// function of (seed, id, step) (docs/determinism.md): the order of steps does not matter.
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "examples/examples.hpp"
#include "schedulers/host_driver.hpp"

namespace sb {
namespace {

template <class Sim>
struct BreadthFirst {
  using Particle = typename Sim::Particle;

  static HostTally run_phase(std::vector<Particle>& ps, const HostPhase<Sim>& ph) {
    for (bool stepped = true; stepped;) {
      stepped = false;
      const size_t n = ps.size();
      for (size_t i = 0; i < n; ++i) {
        Particle p = ps[i];  // a copy: push_back below may move the vector
        if (!has_work(p.tag, ph.window)) continue;
        // Draws start afresh at every step: they depend on the step, not on what came before.
        StepDraws draws(ph.key, p.tag.id(), draw_base(p.tag, ph.window));
        Particle child;
        const Fate fate = advance<Sim>(p, child, ph.params, draws, ph.window);
        ps[i] = p;
        stepped = true;
        if (fate != Fate::kSpawned) continue;
        if (ps.size() >= ph.capacity) throw CapacityError(ph.capacity, ps.size() + 1);
        make_room(ps, ps.size() + 1, ph.capacity, "the particle list");
        ps.push_back(child);
      }
    }
    // Nothing left the vector, and the vector is every slot used.
    return {0, 0, ps.size()};
  }
};

}  // namespace

SchedulerEntry breadth_first_entry() {
  return {"breadth-first",
          "example: a step of every particle per sweep, children from the next sweep",
          SchedulerKind::kCpu,
          {},
          host_runners<BreadthFirst>()};
}

}  // namespace sb
