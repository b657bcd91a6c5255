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
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <thread>
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
#include "ranks/communicator.hpp"
#include "ranks/rebalance.hpp"
#include "ranks/traffic.hpp"
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

// One phase's counts on one rank, summed over the ranks (most_slots: the most of any rank) before
// they enter the run's Counts, so that every count is the same on every rank count.
struct PhaseCount {
  uint64_t start = 0;  // alive at the phase's start
  uint64_t held = 0;   // every particle of the phase, once
  uint64_t dead = 0;   // died, still in the vector
  uint64_t gone = 0;   // died, not in the vector
  uint64_t steps = 0;
  uint64_t most_slots = 0;
};

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

// A phase's counts over every rank.
inline PhaseCount sum_over_ranks(PhaseCount n, ranks::Communicator& comm) {
  std::vector<uint64_t> sums = {n.start, n.held, n.dead, n.gone, n.steps};
  std::vector<uint64_t> most = {n.most_slots};
  comm.sum(sums);
  comm.max(most);
  return {sums[0], sums[1], sums[2], sums[3], sums[4], most[0]};
}

inline void add_phase(Counts& c, const PhaseCount& n, size_t particle_bytes) {
  c.particle_steps += n.steps;
  c.spawned += n.held - n.start;
  c.removed += n.dead + n.gone;
  c.peak = std::max<uint64_t>(c.peak, n.held);
  c.slots_used = std::max(c.slots_used, n.most_slots);
  count_phase_population(c, n.start, n.held, n.held - n.gone - n.dead, particle_bytes);
}

// Whether `phase` is one the caller wants a snapshot of.
inline bool wants_snapshot(const RunOptions& opt, uint32_t phase) {
  return opt.on_snapshot && std::find(opt.snapshot_phases.begin(), opt.snapshot_phases.end(),
                                      phase) != opt.snapshot_phases.end();
}

// A run takes the ranks its configuration names, and on more than one it does not keep or draw
// its particles (each rank holds a share of them).
inline void check_ranks(const RunSpec& spec, const RunOptions& opt,
                        const ranks::Communicator& comm) {
  ranks::check_rank_count(spec.config.ranks, comm);
  if (comm.size() == 1 || !(opt.keep_particles || opt.on_snapshot)) return;
  throw UsageError(fmt::format(
      "{} with {} on {} ranks: its particles are kept or drawn, and each rank holds a share of "
      "them; accepted: one rank (a run without an MPI launcher, or -n 1)",
      spec.config.sim, spec.config.scheduler, comm.size()));
}

// `step`, which a rank may fail alone before the run's first collective (a check, its memory,
// an allocation), agreed on by every rank (ranks::agree_on_failure), so that none waits for one
// that failed.
template <class Step>
void on_every_rank(ranks::Communicator& comm, const Step& step) {
  std::exception_ptr failed;
  int exit_code = 0;
  try {
    step();
  } catch (const UsageError&) {
    failed = std::current_exception();
    exit_code = 2;
  } catch (const RunError&) {
    failed = std::current_exception();
    exit_code = 3;
  }
  ranks::agree_on_failure(failed, comm, exit_code);
}

// The rebalancing at a phase boundary of a rank holding `n` particles (ranks/rebalance.hpp),
// every rank taking part: where a rank's new share would not fit its capacity, every rank ends.
inline ranks::RebalancePlan plan_rebalance(uint64_t n, uint64_t capacity,
                                           ranks::Communicator& comm) {
  const ranks::RebalancePlan plan = ranks::rebalance(comm.gather({n}));
  uint64_t share = 0;
  for (int from = 0; from < comm.size(); ++from)
    share += plan.moves[from][comm.rank()];
  ranks::agree_on_failure(
      share > capacity ? std::make_exception_ptr(CapacityError(capacity, share)) : nullptr, comm);
  return plan;
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

// The parts a driver splits a run's time into (RunResult::parts_ms).
inline const std::vector<std::string>& run_parts() {
  static const std::vector<std::string> parts = {"grid", "mobility", "compaction", "rebalance"};
  return parts;
}

// Each part of a run's time as its slowest rank's; a part that some rank timed (one whose
// particles died, where another's did not) is a part on every rank.
inline void slowest_rank(std::map<std::string, double>& parts_ms, ranks::Communicator& comm) {
  if (comm.size() == 1) return;
  std::vector<uint64_t> ns;  // 0: not timed; otherwise 1 + nanoseconds
  for (const std::string& part : run_parts()) {
    const auto it = parts_ms.find(part);
    ns.push_back(it == parts_ms.end() ? 0 : 1 + static_cast<uint64_t>(it->second * 1e6));
  }
  comm.max(ns);
  for (size_t k = 0; k < ns.size(); ++k) {
    if (ns[k] > 0) parts_ms[run_parts()[k]] = static_cast<double>(ns[k] - 1) * 1e-6;
  }
}

// What a phase boundary's rebalancing adds to a run's result.
inline void add_rebalance(RunResult& r, const ranks::RebalancePlan& plan) {
  r.moved += plan.moved();
  r.imbalance_before = std::max(r.imbalance_before, plan.before);
  r.imbalance_after = std::max(r.imbalance_after, plan.after);
}

// A run's time and its costs of running on several ranks, once every rank has run every phase:
// each part as its slowest rank's, and the reductions counted since the run began
// (ranks/traffic.hpp), in the slowest rank's time.
template <class Particle>
void finish_timing(RunResult& r, ranks::Communicator& comm) {
  r.ranks = comm.size();
  r.moved_bytes = r.moved * sizeof(Particle);
  r.reduced_bytes = ranks::traffic().reduced_bytes;
  std::vector<uint64_t> reduce_ns = {static_cast<uint64_t>(ranks::traffic().reduce_ms * 1e6)};
  comm.max(reduce_ns);
  r.reduce_ms = static_cast<double>(reduce_ns[0]) * 1e-6;
  slowest_rank(r.parts_ms, comm);
  for (const auto& [part, ms] : r.parts_ms)
    r.time_ms += ms;
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
  const typename Sim::Params prm = state.params();
  const PhasePlan& plan = spec.plan();
  std::vector<Particle> ps;
  on_every_rank(comm, [&] {
    ps = initial_particles<Sim>(c, prm, ranks::share_start(c.init_n, comm.size(), comm.rank()),
                                ranks::shares(c.init_n, comm.size())[comm.rank()]);
  });

  RunResult r;
  r.counts.initial = c.init_n;
  ranks::traffic() = {};
  for (uint32_t phase = 0; phase < plan.count; ++phase) {
    const HostPhase<Sim> ph{prm, DrawKey::from_seed(c.seed), plan.window(phase), c.capacity};
    auto t0 = Clock::now();
    state.before_phase(ps, ph.window);
    if (HasPhaseWork<Sim>::value) r.parts_ms["grid"] += ms_since(t0);
    const size_t n_start = ps.size();
    t0 = Clock::now();
    HostTally tally;
    std::exception_ptr failed;
    try {
      tally = Engine<Sim>::run_phase(ps, ph);
    } catch (const RunError&) {
      failed = std::current_exception();
    }
    ranks::agree_on_failure(failed, comm);
    r.parts_ms["mobility"] += ms_since(t0);
    const PhaseCount n = sum_over_ranks(count_phase(ps, n_start, ph.window, tally), comm);
    add_phase(r.counts, n, sizeof(Particle));
    if (n.dead > 0) {
      t0 = Clock::now();
      ps.erase(
          std::remove_if(ps.begin(), ps.end(), [](const Particle& p) { return !is_alive(p.tag); }),
          ps.end());
      r.parts_ms["compaction"] += ms_since(t0);
    }
    if constexpr (Observes<Sim>::value) {
      try {
        typename Sim::PhaseSums sums{};
        for (const Particle& p : ps)
          sums = sums + Sim::phase_sums(p, prm, ph.window);
        add_observation(r.observables,
                        state.observe(sums, ph.window, {n.start, n.held - n.start, n.dead + n.gone}));
      } catch (const RunError&) {
        failed = std::current_exception();
      }
      ranks::agree_on_failure(failed, comm);
    }
    if (wants_snapshot(opt, phase)) opt.on_snapshot(phase, HostParticleSet<Sim>(ps));
    if (comm.size() > 1 && phase + 1 < plan.count) {
      t0 = Clock::now();
      const ranks::RebalancePlan moves = plan_rebalance(ps.size(), c.capacity, comm);
      if (moves.needed) ps = rebalanced(ps, moves, comm);
      r.parts_ms["rebalance"] += ms_since(t0);
      add_rebalance(r, moves);
    }
  }
  finish_timing<Particle>(r, comm);
  if constexpr (Summarizes<Sim>::value) r.summary = state.summarize(state.deposits());
  std::vector<uint64_t> tail = {ps.size(), digest_of(ps)};
  comm.sum(tail);
  r.counts.final = tail[0];
  r.digest = tail[1];
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
