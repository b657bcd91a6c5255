// Runs a sim with a host engine: builds the initial particles and runs the phase loop
// (phase_loop.hpp) over a store that takes them through each phase with the engine, derives the
// counts from the particles and the engine's tally, and removes the dead.
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
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/digest.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/particle.hpp"
#include "core/run_config.hpp"
#include "core/run_result.hpp"
#include "core/sim_interface.hpp"
#include "core/sim_state.hpp"
#include "ranks/communicator.hpp"
#include "ranks/rebalance.hpp"
#include "schedulers/phase_loop.hpp"
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

// Writes the initial particles of ids [first, first + count) to `out`: a particle depends on its
// id alone, so large populations (a streamed run's may be billions) are drawn on every core.
template <class Sim>
void fill_initial_particles(const RunConfig& c, const typename Sim::Params& prm, uint64_t first,
                            uint64_t count, typename Sim::Particle* out) {
  const DrawKey key = DrawKey::from_seed(c.seed);
  const auto fill = [&](uint64_t from, uint64_t to) {
    for (uint64_t i = from; i < to; ++i)
      out[i] = Sim::initial(first + i, prm, key);
  };
  constexpr uint64_t kPerThread = uint64_t{1} << 20;
  const uint64_t threads =
      std::min<uint64_t>(std::max(1u, std::thread::hardware_concurrency()), count / kPerThread);
  if (threads <= 1) return fill(0, count);
  std::vector<std::thread> pool;
  for (uint64_t t = 0; t < threads; ++t)
    pool.emplace_back(fill, count * t / threads, count * (t + 1) / threads);
  for (std::thread& t : pool)
    t.join();
}

// The initial particles of ids [first, first + count): a rank's share (ranks/rebalance.hpp), or
// every one.
template <class Sim>
std::vector<typename Sim::Particle> initial_particles(const RunConfig& c,
                                                      const typename Sim::Params& prm,
                                                      uint64_t first = 0,
                                                      uint64_t count = UINT64_MAX) {
  count = std::min(count, c.init_n - first);
  if (count > c.capacity) throw CapacityError(c.capacity, count);
  auto ps = allocate_host<typename Sim::Particle>(count, "the initial particles");
  fill_initial_particles<Sim>(c, prm, first, count, ps.data());
  return ps;
}

// The counts of a phase from the particles at its end, before the dead are removed, and from the
// engine's tally of those gone from them.
template <class Particle>
PhaseCount count_phase(const std::vector<Particle>& ps, size_t n_start, PhaseWindow w,
                       const HostTally& t) {
  PhaseCount n{n_start, ps.size() + t.gone, 0, t.gone, t.gone_steps, t.most_slots};
  for (const Particle& p : ps) {
    n.dead += is_alive(p.tag) ? 0 : 1;
    n.steps += steps_in_phase(p, w);
  }
  return n;
}

// This rank's particles after `plan`: what of `ps` it keeps and what the other ranks send, in
// the order of their ranks.
template <class Particle>
std::vector<Particle> rebalanced(const std::vector<Particle>& ps, const ranks::RebalancePlan& plan,
                                 ranks::Communicator& comm) {
  std::vector<uint64_t> receive(comm.size());
  uint64_t total = 0;
  for (int from = 0; from < comm.size(); ++from) {
    receive[from] = plan.moves[from][comm.rank()];
    total += receive[from];
  }
  auto arrived = allocate_host<Particle>(total, "the particles a rebalance brings");
  comm.exchange(ps.data(), plan.moves[comm.rank()], arrived.data(), receive, sizeof(Particle));
  return arrived;
}

// The store of a host engine's run (phase_loop.hpp): this rank's particles in one vector, which
// the engine takes through each phase.
template <class Sim, template <class> class Engine>
class HostStore {
 public:
  using Particle = typename Sim::Particle;
  static constexpr bool kRebalances = true;

  HostStore(const RunConfig& c, const PhasePlan& plan, HostState<Sim>& state,
            std::vector<Particle> initial)
      : c_(c), plan_(plan), state_(state), prm_(state.params()), ps_(std::move(initial)) {}

  uint32_t launch(uint32_t phase, uint32_t, std::map<std::string, double>& parts_ms) {
    window_ = plan_.window(phase);
    const HostPhase<Sim> ph{prm_, DrawKey::from_seed(c_.seed), window_, c_.capacity};
    auto t0 = Clock::now();
    state_.before_phase(ps_, window_);
    if (HasPhaseWork<Sim>::value) parts_ms["grid"] += ms_since(t0);
    const size_t n_start = ps_.size();
    t0 = Clock::now();
    const HostTally tally = Engine<Sim>::run_phase(ps_, ph);
    parts_ms["mobility"] += ms_since(t0);
    count_ = count_phase(ps_, n_start, window_, tally);
    return 1;
  }
  const PhaseCount& count(uint32_t) const { return count_; }
  void remove_dead(std::map<std::string, double>& parts_ms) {
    if (count_.dead == 0) return;
    const auto t0 = Clock::now();
    ps_.erase(
        std::remove_if(ps_.begin(), ps_.end(), [](const Particle& p) { return !is_alive(p.tag); }),
        ps_.end());
    parts_ms["compaction"] += ms_since(t0);
  }
  auto sums(uint32_t) const {
    typename Sim::PhaseSums sums{};
    for (const Particle& p : ps_)
      sums = sums + Sim::phase_sums(p, prm_, window_);
    return sums;
  }
  uint64_t population() const { return ps_.size(); }
  std::vector<Particle> particles() const { return ps_; }
  std::vector<Particle> take_particles() { return std::move(ps_); }
  void rebalance(const ranks::RebalancePlan& plan) { ps_ = rebalanced(ps_, plan, ranks::world()); }
  uint64_t digest() const { return digest_of(ps_); }
  decltype(auto) deposits() const { return state_.deposits(); }

 private:
  using Clock = std::chrono::steady_clock;
  static double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }

  const RunConfig& c_;
  const PhasePlan& plan_;
  HostState<Sim>& state_;
  const typename Sim::Params prm_;
  std::vector<Particle> ps_;
  PhaseWindow window_{};
  PhaseCount count_;
};

template <class Sim, template <class> class Engine>
RunResult run_on_host(const RunSpec& spec, const RunOptions& opt) {
  const RunConfig& c = spec.config;
  using Particle = typename Sim::Particle;
  static_assert(check_host_engine<Engine<Sim>, Particle, HostPhase<Sim>, HostTally>());
  ranks::Communicator& comm = ranks::world();
  on_every_rank(comm, [&] {
    check_ranks(spec, opt, comm);
    // Host engines grow to the capacity rather than allocate it, but one the machine can never
    // hold is refused now, not after minutes of running.
    const HostMemoryLimit limit = host_memory_limit();
    require_memory(
        "host", fmt::format("--capacity {}", c.capacity), c.capacity, sizeof(Particle),
        limit.bytes,
        fmt::format("this process can have at most {} ({})", format_bytes(limit.bytes), limit.why));
  });
  HostState<Sim> state(spec.setup<Sim>());
  std::vector<Particle> ps;
  on_every_rank(comm, [&] {
    ps = initial_particles<Sim>(c, state.params(),
                                ranks::share_start(c.init_n, comm.size(), comm.rank()),
                                ranks::shares(c.init_n, comm.size())[comm.rank()]);
  });
  HostStore<Sim, Engine> store(c, spec.plan(), state, std::move(ps));
  return run_phase_loop<Sim>(spec, opt, state, store);
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
