// Runs a sim with a host engine: builds the initial particles, runs each phase through the
// engine, derives the counts from the particles, removes the dead, digests the result.
//
// A host engine is a class template over the sim with
//   static void run_phase(std::vector<Particle>&, const HostPhase<Sim>&);
// that takes every particle with work to the end of the window, appending children.
#pragma once

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "core/diff.hpp"
#include "core/digest.hpp"
#include "core/errors.hpp"
#include "core/particle.hpp"
#include "core/run_config.hpp"
#include "core/run_result.hpp"
#include "schedulers/scheduler.hpp"

namespace sb {

template <class Sim>
struct HostPhase {
  typename Sim::Params params;
  DrawKey key;
  PhaseWindow window;
  uint64_t capacity;
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

  const std::vector<typename Sim::Particle>& particles() const { return particles_; }

 private:
  std::vector<typename Sim::Particle> particles_;
};

template <class Sim>
std::vector<typename Sim::Particle> initial_particles(const RunConfig& c,
                                                      const typename Sim::Params& prm) {
  if (c.init_n > c.capacity) throw CapacityError(c.capacity, c.init_n);
  const DrawKey key = DrawKey::from_seed(c.seed);
  std::vector<typename Sim::Particle> ps(c.init_n);
  for (uint64_t i = 0; i < c.init_n; ++i) ps[i] = Sim::initial(i, prm, key);
  return ps;
}

// Counts that follow from the particles at the end of a phase, before the dead are removed.
template <class Particle>
void count_phase(const std::vector<Particle>& ps, size_t n_start, PhaseWindow w, Counts& c) {
  c.spawned += ps.size() - n_start;
  c.peak = std::max<uint64_t>(c.peak, ps.size());
  for (const Particle& p : ps) {
    c.removed += is_alive(p.tag) ? 0 : 1;
    c.particle_steps += p.tag.step - draw_base(p.tag, w);
  }
}

template <class Sim, template <class> class Engine>
RunResult run_on_host(const RunConfig& c, const RunOptions& opt) {
  using Particle = typename Sim::Particle;
  const typename Sim::Params prm = Sim::params(c);
  const PhasePlan plan = Sim::phases(c);
  std::vector<Particle> ps = initial_particles<Sim>(c, prm);

  RunResult r;
  r.counts.initial = ps.size();
  const auto t0 = std::chrono::steady_clock::now();
  for (uint32_t phase = 0; phase < plan.count; ++phase) {
    const HostPhase<Sim> ph{prm, DrawKey::from_seed(c.seed), plan.window(phase), c.capacity};
    const size_t n_start = ps.size();
    Engine<Sim>::run_phase(ps, ph);
    count_phase(ps, n_start, ph.window, r.counts);
    ps.erase(std::remove_if(ps.begin(), ps.end(), [](const Particle& p) { return !is_alive(p.tag); }),
             ps.end());
  }
  r.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.counts.final = ps.size();
  r.digest = digest_of(ps);
  if (opt.keep_particles) r.particles = std::make_shared<HostParticleSet<Sim>>(std::move(ps));
  return r;
}

template <template <class> class Engine>
std::map<std::string, RunFn> host_runners() {
  return run_fns([](auto* sim) -> RunFn { return &run_on_host<std::remove_pointer_t<decltype(sim)>, Engine>; });
}

}  // namespace sb
