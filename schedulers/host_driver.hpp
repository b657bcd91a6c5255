// Runs a sim with a host engine: builds the initial particles, runs each phase through the
// engine, derives the counts from the particles and the engine's tally, removes the dead,
// digests the result.
//
// A host engine is a class template over the sim with
//   static HostTally run_phase(std::vector<Particle>&, const HostPhase<Sim>&);
// that takes every particle with work to the end of the window (schedulers/scheduler_interface.hpp
// checks it at compile time). Every survivor ends in the vector, in any slot; a particle that
// died may stay there, for the driver to count and remove, or be gone from it: a child that died
// before it took a slot, or one whose slot a survivor took (docs/design.md §3). The tally counts
// those, so that every count but the slots used is the same whichever the engine keeps.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "core/diff.hpp"
#include "core/digest.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/particle.hpp"
#include "core/run_config.hpp"
#include "core/run_result.hpp"
#include "core/sim_interface.hpp"
#include "core/sim_state.hpp"
#include "schedulers/run_spec.hpp"
#include "schedulers/scheduler.hpp"
#include "schedulers/scheduler_interface.hpp"

namespace sb {

template <class Sim>
struct HostPhase {
  typename Sim::Params params;
  DrawKey key;
  PhaseWindow window;
  uint64_t capacity;
};

// What a host engine's phase did that its particle vector does not show.
struct HostTally {
  uint64_t gone = 0;        // particles that died and are not in the vector
  uint64_t gone_steps = 0;  // their particle-steps
  uint64_t most_slots = 0;  // most slots in use at once, children not in the vector included
};

template <class Sim>
class HostParticleSet : public ParticleSet {
 public:
  explicit HostParticleSet(std::vector<typename Sim::Particle> particles)
      : particles_(std::move(particles)) {}

  size_t size() const override { return particles_.size(); }

  std::vector<std::string> differences(const ParticleSet& other, size_t max_reports,
                                       const std::string& name_this,
                                       const std::string& name_other) const override {
    const auto& that = dynamic_cast<const HostParticleSet<Sim>&>(other);
    return first_differences(particles_, that.particles_, max_reports, name_this, name_other);
  }

  std::optional<Image> picture() const override {
    if constexpr (kHasPicture<Sim>) {
      return Sim::picture(particles_);
    } else {
      return std::nullopt;
    }
  }

  const std::vector<typename Sim::Particle>& particles() const { return particles_; }

 private:
  std::vector<typename Sim::Particle> particles_;
};

template <class Sim>
std::vector<typename Sim::Particle> initial_particles(const RunConfig& c,
                                                      const typename Sim::Params& prm) {
  if (c.init_n > c.capacity) throw CapacityError(c.capacity, c.init_n);
  const DrawKey key = DrawKey::from_seed(c.seed);
  auto ps = allocate_host<typename Sim::Particle>(c.init_n, "the initial particles");
  for (uint64_t i = 0; i < c.init_n; ++i)
    ps[i] = Sim::initial(i, prm, key);
  return ps;
}

// Counts that follow from the particles at the end of a phase, before the dead are removed, and
// from the engine's tally of those gone from them. Returns how many of `ps` are dead.
template <class Particle>
uint64_t count_phase(const std::vector<Particle>& ps, size_t n_start, PhaseWindow w,
                     const HostTally& t, Counts& c) {
  const uint64_t held = ps.size() + t.gone;  // every particle of the phase, once
  uint64_t dead = 0;
  for (const Particle& p : ps) {
    dead += is_alive(p.tag) ? 0 : 1;
    c.particle_steps += steps_in_phase(p, w);
  }
  c.particle_steps += t.gone_steps;
  c.spawned += held - n_start;
  c.removed += dead + t.gone;
  c.peak = std::max<uint64_t>(c.peak, held);
  c.slots_used = std::max(c.slots_used, t.most_slots);
  count_phase_population(c, n_start, held, ps.size() - dead, sizeof(Particle));
  return dead;
}

// Whether `phase` is one the caller wants a snapshot of.
inline bool wants_snapshot(const RunOptions& opt, uint32_t phase) {
  return opt.on_snapshot && std::find(opt.snapshot_phases.begin(), opt.snapshot_phases.end(),
                                      phase) != opt.snapshot_phases.end();
}

template <class Sim, template <class> class Engine>
RunResult run_on_host(const RunSpec& spec, const RunOptions& opt) {
  const RunConfig& c = spec.config;
  using Particle = typename Sim::Particle;
  static_assert(check_host_engine<Engine<Sim>, Particle, HostPhase<Sim>, HostTally>());
  using Clock = std::chrono::steady_clock;
  const auto ms_since = [](Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };
  // Host engines grow to the capacity rather than allocate it, but one the machine can never
  // hold is refused now, not after minutes of running.
  const HostMemoryLimit limit = host_memory_limit();
  require_memory(
      "host", fmt::format("--capacity {}", c.capacity), c.capacity, sizeof(Particle), limit.bytes,
      fmt::format("this process can have at most {} ({})", format_bytes(limit.bytes), limit.why));
  HostState<Sim> state(spec.setup<Sim>());
  const typename Sim::Params prm = state.params();
  const PhasePlan& plan = spec.plan();
  std::vector<Particle> ps = initial_particles<Sim>(c, prm);

  RunResult r;
  r.counts.initial = ps.size();
  for (uint32_t phase = 0; phase < plan.count; ++phase) {
    const HostPhase<Sim> ph{prm, DrawKey::from_seed(c.seed), plan.window(phase), c.capacity};
    auto t0 = Clock::now();
    state.before_phase(ps, ph.window);
    if (HasPhaseWork<Sim>::value) r.parts_ms["grid"] += ms_since(t0);
    const size_t n_start = ps.size();
    t0 = Clock::now();
    const HostTally tally = Engine<Sim>::run_phase(ps, ph);
    r.parts_ms["mobility"] += ms_since(t0);
    const uint64_t removed = r.counts.removed, spawned = r.counts.spawned;
    if (count_phase(ps, n_start, ph.window, tally, r.counts) > 0) {
      t0 = Clock::now();
      ps.erase(
          std::remove_if(ps.begin(), ps.end(), [](const Particle& p) { return !is_alive(p.tag); }),
          ps.end());
      r.parts_ms["compaction"] += ms_since(t0);
    }
    if constexpr (Observes<Sim>::value) {
      r.observables.push_back(state.observe(
          ps, ph.window, {n_start, r.counts.spawned - spawned, r.counts.removed - removed}));
    }
    if (wants_snapshot(opt, phase)) opt.on_snapshot(phase, HostParticleSet<Sim>(ps));
  }
  for (const auto& [part, ms] : r.parts_ms)
    r.time_ms += ms;
  r.counts.final = ps.size();
  r.digest = digest_of(ps);
  if (opt.keep_particles) r.particles = std::make_shared<HostParticleSet<Sim>>(std::move(ps));
  return r;
}

// `Sims` is part of the instantiation's name, so that the two builds of the schedulers (BuiltSims,
// schedulers/scheduler.hpp) link into one program.
template <template <class> class Engine, class Sims = BuiltSims>
std::map<std::string, SimRunner> host_runners() {
  return run_fns<Sims>([](auto* sim) -> RunFn {
    return &run_on_host<std::remove_pointer_t<decltype(sim)>, Engine>;
  });
}

}  // namespace sb
