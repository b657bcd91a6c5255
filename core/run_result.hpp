// What one run produced.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/image.hpp"

namespace sb {

struct Counts {
  uint64_t initial = 0;
  uint64_t final = 0;
  uint64_t spawned = 0;
  uint64_t removed = 0;
  uint64_t particle_steps = 0;
  // Most particles a phase held, the living and those that died in it: the slots of an engine
  // that stores every particle once and removes the dead at phase ends. The same in every engine.
  uint64_t peak = 0;
  // Most slots this engine used at once: the number --capacity bounds. At most `peak`, less
  // where the engine keeps children that die without a slot or reuses the slots of the dead
  // (docs/design.md §3); it is the engine's own, not compared between engines.
  uint64_t slots_used = 0;
  // Most particles alive at a phase boundary (the start or the end of a phase): the population
  // that slots are measured against (docs/performance.md, "Slots and the live population").
  uint64_t peak_live = 0;
  // The particle-record traffic of a scheduler that keeps each particle in registers for its
  // phase and stores every particle once: every particle alive at a phase start and every child
  // read once and written once. The bytes behind the memory-bandwidth line (docs/performance.md,
  // "The bound and the memory line").
  uint64_t record_bytes = 0;
};

// The slots the engine used per particle alive at the fullest phase boundary: 1 where slots
// follow the population.
inline double slots_per_live(const Counts& c) {
  return c.peak_live > 0 ? static_cast<double>(c.slots_used) / static_cast<double>(c.peak_live)
                         : 0.0;
}

// The counts a phase adds that follow from its start, its slots and its survivors: peak live
// population and record traffic (the rest are the engine's to count).
inline void count_phase_population(Counts& c, uint64_t start, uint64_t slots, uint64_t alive,
                                   uint64_t particle_bytes) {
  c.peak_live = c.peak_live > start ? c.peak_live : start;
  c.peak_live = c.peak_live > alive ? c.peak_live : alive;
  c.record_bytes += 2 * particle_bytes * slots;
}

// A sim's named measurements of one phase, in the order it reports them (sims that observe their
// particles: core/sim_state.hpp).
using Observables = std::vector<std::pair<std::string, double>>;

// What a sim measures over a whole run, where it does (ccp: the benchmark's profiles and the
// statistics of them): named numbers, and named profiles along its mesh, a column of values each.
struct RunSummary {
  Observables values;
  std::vector<std::pair<std::string, std::vector<double>>> profiles;
};

// The final particles of a run, kept only where asked (RunOptions::keep_particles): by the tests
// that compare engines particle by particle, and for `bound`, whose population is a run's final
// particles (RunOptions::reference).
class ParticleSet {
 public:
  virtual ~ParticleSet() = default;
  virtual size_t size() const = 0;
  // Lines naming the first particles that differ from `other` (a set of the same sim).
  virtual std::vector<std::string> differences(const ParticleSet& other, size_t max_reports,
                                               const std::string& name_this,
                                               const std::string& name_other) const = 0;
  // The sim's picture of the particles, where the sim draws one.
  virtual std::optional<Image> picture() const = 0;
};

// A streamed run's traffic (particles kept in pinned host memory and run through the device in
// batches, schedulers/device/batches.cuh): the device slots of a batch, the batches run (a batch
// that overflowed its slots and ran again in halves counts each time), the bytes copied each way,
// and the time the copies took on the copy engines. The copies overlap the compute, so their time
// is not a part of the run's time.
struct Streaming {
  uint64_t batch_slots = 0;
  uint64_t batches = 0;
  uint64_t bytes_to_device = 0, bytes_to_host = 0;
  double to_device_ms = 0, to_host_ms = 0;
};

struct RunResult {
  Counts counts;
  double time_ms = 0;                      // the timed region: all phases
  std::map<std::string, double> parts_ms;  // its split by kind of work, where measured
  uint64_t digest = 0;
  uint64_t device_bytes = 0;  // most device memory the run held (GPU schedulers)
  // Over several ranks (docs/design.md §10): how many; the particles that changed rank at phase
  // boundaries, with their bytes; the grids and bounds reduced over the ranks, with their bytes
  // and the time the reductions took; and the imbalance (most particles on a rank over the mean)
  // at the worst phase boundary, before and after rebalancing.
  int ranks = 1;
  uint64_t moved = 0, moved_bytes = 0;
  uint64_t reduced_bytes = 0;
  double reduce_ms = 0;
  double imbalance_before = 1, imbalance_after = 1;
  std::optional<Streaming> streaming;            // a streamed run's, summed over its ranks
  std::shared_ptr<const ParticleSet> particles;  // null unless RunOptions::keep_particles
  // Per phase where the sim observes; a phase whose observation is empty adds no row (ccp
  // reports once per RF period).
  std::vector<Observables> observables;
  std::optional<RunSummary> summary;  // where the sim summarizes its run
};

struct RunOptions {
  bool keep_particles = false;
  // Called with the particles at the end of each listed phase (after the dead are removed),
  // outside the timed region.
  std::vector<uint32_t> snapshot_phases;
  std::function<void(uint32_t phase, const ParticleSet&)> on_snapshot;
  // Called after each launch's phases are counted and observed, outside the timed region, with
  // the phases run so far and the particles alive after them on every rank: a long run's progress.
  std::function<void(uint32_t phases_done, uint64_t alive)> on_progress;
  // For a yardstick (bound): the real run of the same configuration it measures against, with
  // its particles kept. The registry's run() supplies it; yardsticks know no scheduler.
  std::shared_ptr<const RunResult> reference;
};

}  // namespace sb
