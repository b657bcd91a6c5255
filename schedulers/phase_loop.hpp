// The one phase loop of every engine (docs/design.md §4, "One phase loop"): a run's phases over
// a store of its particles, the host's vector (host_driver.hpp), the device's slots or pinned host
// memory streamed through the device (device/driver.cu). The loop owns what every store shares:
// the order of the work, failure agreement across ranks, the counts summed over the ranks, the
// observation, snapshots, progress, rebalancing and the run's timing; a store owns where its
// particles are.
//
// A store of Sim's particles has
//   static constexpr bool kRebalances;  // whether its ranks move particles at a phase boundary
//   // Runs phases [phase, phase + k) for some 1 <= k <= most and returns k: the grid work, the
//   // phases, the counts of each on this rank (`count(j)`), adding its times to `parts_ms`. May
//   // throw RunError (on this rank alone: the loop agrees on it).
//   uint32_t launch(uint32_t phase, uint32_t most, std::map<std::string, double>& parts_ms);
//   const PhaseCount& count(uint32_t j) const;
//   void remove_dead(std::map<std::string, double>& parts_ms);  // those of the last launch
//   Sim::PhaseSums sums(uint32_t j);  // where the sim observes: over phase j's survivors
//   uint64_t population() const;      // particles on this rank
//   std::vector<Particle> particles() const;  // a copy of them (snapshots)
//   std::vector<Particle> take_particles();   // them, once every phase is done
//   void rebalance(const ranks::RebalancePlan&);  // where kRebalances
//   uint64_t digest();                // of this rank's particles
//   deposits() const;                 // where the sim summarizes its run (core/sim_state.hpp)
// What a store adds to the result (the device's memory, the streaming) its driver adds after.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diff.hpp"
#include "core/errors.hpp"
#include "core/particle.hpp"
#include "core/run_result.hpp"
#include "core/sim_interface.hpp"
#include "core/sim_state.hpp"
#include "ranks/communicator.hpp"
#include "ranks/rebalance.hpp"
#include "ranks/traffic.hpp"
#include "schedulers/run_spec.hpp"
#include "schedulers/scheduler.hpp"

namespace sb {

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

// One phase's counts on one rank, summed over the ranks (most_slots: the most of any rank) before
// they enter the run's Counts, so that every count is the same on every rank count.
struct PhaseCount {
  uint64_t start = 0;  // alive at the phase's start
  uint64_t held = 0;   // every particle of the phase, once
  uint64_t dead = 0;   // died, still in the store
  uint64_t gone = 0;   // died, not in the store
  uint64_t steps = 0;
  uint64_t most_slots = 0;

  uint64_t born() const { return held - start; }
  uint64_t removed() const { return dead + gone; }
  uint64_t alive_after() const { return held - removed(); }
};

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
  c.spawned += n.born();
  c.removed += n.removed();
  c.peak = std::max<uint64_t>(c.peak, n.held);
  c.slots_used = std::max(c.slots_used, n.most_slots);
  count_phase_population(c, n.start, n.held, n.alive_after(), particle_bytes);
}

// Whether `phase` is one the caller wants a snapshot of.
inline bool wants_snapshot(const RunOptions& opt, uint32_t phase) {
  return opt.on_snapshot && std::find(opt.snapshot_phases.begin(), opt.snapshot_phases.end(),
                                      phase) != opt.snapshot_phases.end();
}

// The most phases a launch from `phase` may take: to the end, and to the next snapshot wanted.
inline uint32_t launch_bound(const RunOptions& opt, const PhasePlan& plan, uint32_t phase) {
  uint32_t most = plan.count - phase;
  if (opt.on_snapshot) {
    for (const uint32_t wanted : opt.snapshot_phases) {
      if (wanted >= phase) most = std::min(most, wanted - phase + 1);
    }
  }
  return most;
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

// `work`, which may throw RunError on this rank alone, agreed on by every rank.
template <class Work>
void agreed(ranks::Communicator& comm, const Work& work) {
  std::exception_ptr failed;
  try {
    work();
  } catch (const RunError&) {
    failed = std::current_exception();
  }
  ranks::agree_on_failure(failed, comm);
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

// Runs every phase of `spec`'s plan over `store`, whose particles are the run's initial ones (on
// several ranks, this rank's share), and gives the run's result. `state` is the sim's host state
// of the run, which observes each phase and summarizes the run.
template <class Sim, class Store>
RunResult run_phase_loop(const RunSpec& spec, const RunOptions& opt, HostState<Sim>& state,
                         Store& store) {
  using Particle = typename Sim::Particle;
  ranks::Communicator& comm = ranks::world();
  const PhasePlan& plan = spec.plan();
  RunResult r;
  r.counts.initial = spec.config.init_n;
  ranks::traffic() = {};
  for (uint32_t phase = 0; phase < plan.count;) {
    uint32_t k = 1;
    agreed(comm, [&] { k = store.launch(phase, launch_bound(opt, plan, phase), r.parts_ms); });
    std::vector<PhaseCount> totals;
    for (uint32_t j = 0; j < k; ++j) {
      totals.push_back(sum_over_ranks(store.count(j), comm));
      add_phase(r.counts, totals.back(), sizeof(Particle));
    }
    store.remove_dead(r.parts_ms);
    if constexpr (Observes<Sim>::value) {
      for (uint32_t j = 0; j < k; ++j) {
        const PhaseCount& n = totals[j];
        // Observed outside the timed parts; the sums are exact, so the same in any order.
        agreed(comm, [&] {
          add_observation(r.observables, state.observe(store.sums(j), plan.window(phase + j),
                                                       {n.start, n.born(), n.removed()}));
        });
      }
    }
    phase += k;
    if (wants_snapshot(opt, phase - 1))
      opt.on_snapshot(phase - 1, HostParticleSet<Sim>(store.particles()));
    if (opt.on_progress) opt.on_progress(phase, totals.back().alive_after());
    if constexpr (Store::kRebalances) {
      if (comm.size() > 1 && phase < plan.count) {
        const auto t0 = std::chrono::steady_clock::now();
        const ranks::RebalancePlan moves =
            plan_rebalance(store.population(), spec.config.capacity, comm);
        if (moves.needed) store.rebalance(moves);
        r.parts_ms["rebalance"] +=
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        add_rebalance(r, moves);
      }
    }
  }
  finish_timing<Particle>(r, comm);
  if constexpr (Summarizes<Sim>::value) r.summary = state.summarize(store.deposits());
  std::vector<uint64_t> tail = {store.population(), store.digest()};
  comm.sum(tail);
  r.counts.final = tail[0];
  r.digest = tail[1];
  if (opt.keep_particles)
    r.particles = std::make_shared<HostParticleSet<Sim>>(store.take_particles());
  return r;
}

}  // namespace sb
