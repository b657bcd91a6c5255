// Populations larger than the device (seed 002's particle batches; docs/design.md §11): the
// particles stay in pinned host memory and each phase streams them through the GPU in batches.
// Particles are independent within a phase (docs/determinism.md), so a batch takes its particles
// and their children to the phase's end as the whole population would: the digest, the counts and
// the observables are the in-memory run's. Only the driver changes; every GPU scheduler runs a
// batch as it runs a population that fits.
//
// A sim's grid work between phases streams too (DeviceState's gather and on_batch,
// schedulers/device/sim_device_state.cuh). The grids of a phase are gathered from the survivors of
// each batch of the phase before, on the device before they are copied out; only the first phase,
// and one whose grids need every particle gathered again, stream the population through the lanes
// for it, copied in only. Each batch reads the grids just before it runs, as the in-memory run
// gives every particle what it reads before the phase.
//
// Two lanes of device slots alternate. While the scheduler runs a batch in one lane on the compute
// stream, the next batch is copied into the other lane on a stream of its own, and the survivors of
// the batch before are copied out of it on a third, once they are compacted. A batch whose
// children overflow its lane runs again as two halves.
//
// The host store is one pinned array of --capacity particles. A phase reads its population from
// one end of the store, nearest the free middle first, and writes each batch's survivors from the
// other end inward; the next phase reads them back the other way. A batch's slots in the store
// are free only once it has run, so the store needs room for the population the phase ends with
// plus the batches in flight, not for two populations.
#pragma once

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/digest.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "schedulers/device/compaction.cuh"
#include "schedulers/device/driver.cuh"
#include "schedulers/device/phase.cuh"
#include "schedulers/device/phase_reductions.cuh"
#include "schedulers/device/sim_device_state.cuh"
#include "schedulers/device/store_layout.hpp"
#include "schedulers/phase_loop.hpp"

namespace sb {

// A lane: the device slots of one batch with their compaction, the events that order its copies
// after its compute and its compute after its copies, and the timers of its copies.
template <class Particle>
struct BatchLane {
  BatchLane(const LaunchKnobs& k, uint64_t slots, uint32_t block, cudaStream_t compute)
      : particles(slots, "a batch's device slots (--batch)"),
        compactor(k.compaction, particles, 0, block, compute) {
    SB_CUDA_CHECK(cudaMemsetAsync(particles.data(), 0, slots * sizeof(Particle), compute));
  }
  DeviceBuffer<Particle> particles;
  Compactor<Particle> compactor;
  CudaEvent loaded, stored, read;  // read: a gathering pass is done with the lane
  EventTimer load_time, store_time;
  SlotIndex dirty = 0;         // leading slots that may hold particles
  bool store_pending = false;  // store_time not yet added
};

// A run's phases, streamed (the GPU driver's other way, driver.cu): `memory` is what the device had
// free before anything was allocated.
template <class Sim>
class StreamedRun {
 public:
  using Particle = typename Sim::Particle;

  static constexpr bool kRebalances = false;  // its ranks' particles are in host memory

  StreamedRun(const DeviceSetup& setup, const PhasePlan& plan, DeviceState<Sim>& state,
              MakeDeviceScheduler<Sim> make, uint64_t lane_slots, uint32_t block)
      : c_(setup.config),
        plan_(plan),
        lane_config_(lane_config(setup.config, lane_slots)),
        setup_{lane_config_, setup.knobs, setup.device, setup.stream, setup.watchdog},
        state_(state),
        prm_(state.params()),
        store_(c_.capacity, "the particles in host memory (--capacity)"),
        layout_(c_.capacity),
        counters_(1, "the particle counters"),
        lanes_{std::make_unique<BatchLane<Particle>>(setup.knobs, lane_slots, block, setup.stream),
               std::make_unique<BatchLane<Particle>>(setup.knobs, lane_slots, block, setup.stream)},
        scheduler_(make(setup_)) {
    streaming_.batch_slots = lane_slots;
  }

  Particle* store() const { return store_.data(); }
  // A copy of the population, for snapshots and the tests.
  std::vector<Particle> particles() const {
    const Particle* first = store_.data() + layout_.first();
    return std::vector<Particle>(first, first + layout_.population());
  }
  std::vector<Particle> take_particles() const { return particles(); }
  void start_with(uint64_t n) { layout_.start_with(n); }
  uint64_t population() const { return layout_.population(); }

  // The phase loop's store (schedulers/phase_loop.hpp): a phase a launch, its dead removed batch by
  // batch as it runs.
  uint32_t launch(uint32_t phase, uint32_t, std::map<std::string, double>& parts_ms) {
    run_phase(plan_.window(phase), parts_ms);
    return 1;
  }
  const PhaseCount& count(uint32_t) const { return outcome_.count; }
  void remove_dead(std::map<std::string, double>&) {}
  const ObservedSums<Sim>& sums(uint32_t) const { return outcome_.sums; }
  uint64_t digest() const { return ran_ ? outcome_.digest : digest_of(particles()); }
  decltype(auto) deposits() const { return state_.deposits(); }

  const Streaming& streaming() const { return streaming_; }

 private:
  // What a phase did on this rank: its counts, its observed sums, and its survivors' digest.
  struct PhaseOutcome {
    PhaseCount count;
    ObservedSums<Sim> sums{};
    uint64_t digest = 0;
  };

  void run_phase(PhaseWindow window, std::map<std::string, double>& parts_ms) {
    ran_ = true;
    window_ = window;
    outcome_ = {};
    outcome_.count.start = layout_.population();
    taken_ = completed_ = written_ = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double computed_ms = 0;
    if constexpr (HasPhaseWork<Sim>::value) {
      if (!gathered_) gather_pass();
      while (!state_.end_gather(setup_.stream))
        gather_pass();
      setup_.watchdog.sync(setup_.stream);
      grid_ms_ +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      computed_ms += grid_ms_;
      state_.begin_gather(setup_.stream);  // the next phase's, from this one's survivors
      gathered_ = true;
    }
    uint64_t load_limit = first_load();
    Batch current = take(load_limit);
    if (current.count > 0) load(*lanes_[0], current);
    for (int lane = 0; current.count > 0; lane = 1 - lane) {
      const Batch next = take(load_limit);
      if (next.count > 0) load(*lanes_[1 - lane], next);
      computed_ms += run_batch(*lanes_[lane], current, true);
      load_limit = next_load();
      current = next;
    }
    SB_CUDA_CHECK(cudaStreamSynchronize(copy_out_));
    for (auto& lane : lanes_)
      add_store_time(*lane);
    layout_.turn(written_);
    const double wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    parts_ms["mobility"] += mobility_ms_;
    parts_ms["compaction"] += compaction_ms_;
    // The grids' gathering, passes and their copies included, and what each batch read of them.
    if (HasPhaseWork<Sim>::value) parts_ms["grid"] += grid_ms_;
    // The rest of the phase's time: the compute waiting for copies, and the driver's reductions.
    parts_ms["streaming"] += std::max(0.0, wall_ms - computed_ms);
    mobility_ms_ = compaction_ms_ = grid_ms_ = 0;
  }

  struct Batch {
    uint64_t first;  // after how many particles of the phase taken before it
    uint64_t count;
  };

  static RunConfig lane_config(RunConfig c, uint64_t slots) {
    c.capacity = slots;  // what a scheduler sizes its own lists by
    return c;
  }

  // The first batch leaves half its lane for children; later ones as much as the most any batch
  // of the run has needed per particle, and a tenth more.
  uint64_t first_load() const { return load_for(growth_ > 0 ? growth_ : 2.0); }
  uint64_t next_load() const { return load_for(growth_); }
  uint64_t load_for(double growth) const {
    const double slots = static_cast<double>(lanes_[0]->particles.size());
    return std::max<uint64_t>(1, static_cast<uint64_t>(slots / (1.1 * std::max(1.0, growth))));
  }

  Batch take(uint64_t most) {
    const Batch b{taken_, std::min(most, layout_.population() - taken_)};
    taken_ += b.count;
    return b;
  }

  void load(BatchLane<Particle>& lane, Batch b) {
    copy_in(lane, layout_.taken_at(b.first, b.count), b.count);
  }

  // Copies `count` particles from store index `at` into the lane, once the lane's survivors are
  // out and any grid pass is done with it.
  void copy_in(BatchLane<Particle>& lane, uint64_t at, uint64_t count) {
    SB_CUDA_CHECK(cudaStreamWaitEvent(copy_in_, lane.stored));
    SB_CUDA_CHECK(cudaStreamWaitEvent(copy_in_, lane.read));
    lane.load_time.start(copy_in_);
    SB_CUDA_CHECK(cudaMemcpyAsync(lane.particles.data(), store_.data() + at,
                                  count * sizeof(Particle), cudaMemcpyHostToDevice, copy_in_));
    lane.load_time.stop(copy_in_);
    SB_CUDA_CHECK(cudaEventRecord(lane.loaded, copy_in_));
    streaming_.bytes_to_device += count * sizeof(Particle);
  }

  // The grids gathered from every particle of the population, a lane's worth at a time, the copy of
  // the next batch overlapping the gathering of this one. In any order, since the grids' sums do
  // not depend on it: the store's population as it lies. Nothing is copied back.
  void gather_pass() {
    state_.begin_gather(setup_.stream);
    const uint64_t first = layout_.first(), total = layout_.population();
    const uint64_t most = lanes_[0]->particles.size();
    if (total > 0) copy_in(*lanes_[0], first, std::min(most, total));
    for (uint64_t at = 0, lane = 0; at < total; at += most, lane = 1 - lane) {
      const uint64_t count = std::min(most, total - at), next = at + count;
      if (next < total) copy_in(*lanes_[1 - lane], first + next, std::min(most, total - next));
      BatchLane<Particle>& here = *lanes_[lane];
      SB_CUDA_CHECK(cudaStreamWaitEvent(setup_.stream, here.loaded));
      state_.gather(here.particles.data(), count, setup_.stream);
      SB_CUDA_CHECK(cudaEventRecord(here.read, setup_.stream));
      here.dirty = std::max<SlotIndex>(here.dirty, count);
      SB_CUDA_CHECK(cudaEventSynchronize(here.loaded));  // for its copy's time
      streaming_.to_device_ms += here.load_time.elapsed_ms();
    }
  }

  void add_store_time(BatchLane<Particle>& lane) {
    if (!lane.store_pending) return;
    streaming_.to_host_ms += lane.store_time.elapsed_ms();
    lane.store_pending = false;
  }

  // Runs batch `b` in `lane` (loaded there already or not), in halves where its children overflow
  // the lane, and copies its survivors out; returns the milliseconds the device computed.
  double run_batch(BatchLane<Particle>& lane, Batch b, bool loaded) {
    if (!loaded) load(lane, b);
    const cudaStream_t stream = setup_.stream;
    SB_CUDA_CHECK(cudaStreamWaitEvent(stream, lane.loaded));
    if (lane.dirty > b.count) {
      compaction::clear_status<Particle>
          <<<blocks_for(lane.dirty - b.count, kLaneBlock), kLaneBlock, 0, stream>>>(
              lane.particles.data(), b.count, lane.dirty);
      SB_CUDA_CHECK(cudaGetLastError());
    }
    lane.dirty = std::max<SlotIndex>(lane.dirty, b.count);
    double read_ms = 0;
    if constexpr (HasPhaseWork<Sim>::value) {
      grid_.start(stream);
      state_.on_batch(lane.particles.data(), b.count, stream);
      grid_.stop(stream);
    }
    const DeviceCounters start = counters_at_start(b.count);
    SB_CUDA_CHECK(
        cudaMemcpyAsync(counters_.data(), &start, sizeof start, cudaMemcpyHostToDevice, stream));
    const DevicePhase<Sim> ph{lane.particles.data(),
                              static_cast<SlotIndex>(lane.particles.size()),
                              counters_.data(),
                              setup_.watchdog.device_flag(),
                              prm_,
                              DrawKey::from_seed(c_.seed),
                              window_};
    mobility_.start(stream);
    std::optional<WholePhases<Sim>> whole;
    if (scheduler_->runs_whole_phases()) {
      whole = scheduler_->run_phases(ph, b.count, 1, window_.end - window_.start, nullptr);
    } else {
      scheduler_->run_phase(ph, b.count);
    }
    mobility_.stop(stream);
    setup_.watchdog.sync(stream);
    ++streaming_.batches;
    streaming_.to_device_ms += lane.load_time.elapsed_ms();
    add_store_time(lane);  // the load waited for the lane's last store
    if constexpr (HasPhaseWork<Sim>::value) {
      read_ms = grid_.elapsed_ms();
      grid_ms_ += read_ms;
    }
    const double ran_ms = read_ms + mobility_.elapsed_ms();
    mobility_ms_ += ran_ms - read_ms;
    const DeviceCounters end = counters_.to_host().front();
    const SlotIndex claimed = whole ? whole->claimed : scheduler_->slots_claimed(end);
    lane.dirty = std::min<SlotIndex>(std::max(lane.dirty, claimed), lane.particles.size());
    if (end.overflow != 0) {
      if (b.count == 1) throw CapacityError::of_batch(lane.particles.size());
      const uint64_t half = b.count / 2;
      return ran_ms + run_batch(lane, {b.first, half}, false) +
             run_batch(lane, {b.first + half, b.count - half}, false);
    }
    growth_ = std::max(growth_, static_cast<double>(claimed) / static_cast<double>(b.count));
    return ran_ms + finish_batch(lane, b, end, claimed, whole ? &*whole : nullptr);
  }

  // Counts, compacts, observes and digests a batch that ran, gathers the next phase's grids from
  // its survivors, then copies them out; returns the milliseconds the compaction and the gathering
  // took. A scheduler of whole phases (`whole`) counted the batch and removed its dead itself.
  double finish_batch(BatchLane<Particle>& lane, Batch b, const DeviceCounters& end,
                      SlotIndex claimed, const WholePhases<Sim>* whole) {
    const auto on_stream = thrust::cuda::par.on(setup_.stream);
    Particle* ps = lane.particles.data();
    PhaseTally tally{0, 0, 0};
    SlotIndex held = claimed, alive = claimed, slots = claimed;
    if (whole) {
      const PhaseRecord& x = whole->records.front();
      tally = {x.died, x.steps, 0};
      held = x.start + x.spawned;
      alive = whole->n;
      slots = x.most_slots;
    } else {
      tally = thrust::transform_reduce(on_stream, ps, ps + claimed,
                                       TallyParticle<Particle>{window_}, PhaseTally{0, 0, 0},
                                       AddTally{});
    }
    PhaseCount& n = outcome_.count;
    n.held += held + end.held - tally.vacated;
    n.dead += tally.removed;
    n.gone += end.held;
    n.steps += tally.steps + end.held_steps;
    n.most_slots = std::max<uint64_t>(n.most_slots, slots);
    double compacted_ms = 0;
    if (!whole && tally.removed + tally.vacated > 0) {
      compaction_.start(setup_.stream);
      alive = lane.compactor.compact(claimed);
      compaction_.stop(setup_.stream);
      setup_.watchdog.sync(setup_.stream);  // for the timer's stop
      compacted_ms = compaction_.elapsed_ms();
      compaction_ms_ += compacted_ms;
      ps = lane.particles.data();  // a compaction into a second array swaps the arrays
    }
    if (!whole) lane.dirty = alive;  // whole phases leave their last steps' slots as they were
    if constexpr (HasPhaseWork<Sim>::value) {
      grid_.start(setup_.stream);
      state_.gather(ps, alive, setup_.stream);
      grid_.stop(setup_.stream);
      setup_.watchdog.sync(setup_.stream);
      const double gathered_ms = grid_.elapsed_ms();
      grid_ms_ += gathered_ms;
      compacted_ms += gathered_ms;
    }
    if constexpr (Observes<Sim>::value) {
      outcome_.sums =
          outcome_.sums + (whole ? whole->sums.front()
                                 : thrust::transform_reduce(on_stream, ps, ps + alive,
                                                            PhaseSumsOf<Sim>{prm_, window_},
                                                            typename Sim::PhaseSums{}, AddSums{}));
    }
    outcome_.digest += thrust::transform_reduce(on_stream, ps, ps + alive, HashParticle<Particle>{},
                                                uint64_t{0}, thrust::plus<uint64_t>());
    completed_ += b.count;
    const uint64_t not_run = layout_.population() - completed_;
    if (written_ + alive + not_run > c_.capacity)
      throw CapacityError(c_.capacity, written_ + alive + not_run);
    lane.store_time.start(copy_out_);
    SB_CUDA_CHECK(cudaMemcpyAsync(store_.data() + layout_.written_at(written_, alive), ps,
                                  alive * sizeof(Particle), cudaMemcpyDeviceToHost, copy_out_));
    lane.store_time.stop(copy_out_);
    SB_CUDA_CHECK(cudaEventRecord(lane.stored, copy_out_));
    lane.store_pending = true;
    written_ += alive;
    streaming_.bytes_to_host += alive * sizeof(Particle);
    return compacted_ms;
  }

  static constexpr uint32_t kLaneBlock = 128;

  const RunConfig& c_;
  const PhasePlan& plan_;
  RunConfig lane_config_;
  DeviceSetup setup_;
  DeviceState<Sim>& state_;
  typename Sim::Params prm_;
  PinnedBuffer<Particle> store_;
  StoreLayout layout_;
  DeviceBuffer<DeviceCounters> counters_;
  std::array<std::unique_ptr<BatchLane<Particle>>, 2> lanes_;
  std::unique_ptr<DeviceScheduler<Sim>> scheduler_;
  CudaStream copy_in_, copy_out_;
  EventTimer mobility_, compaction_, grid_;
  PhaseWindow window_{};
  PhaseOutcome outcome_;
  uint64_t taken_ = 0, completed_ = 0, written_ = 0;
  double growth_ = 0;  // most slots a batch claimed per particle it started with
  double mobility_ms_ = 0, compaction_ms_ = 0, grid_ms_ = 0;
  bool gathered_ = false;  // the phase's grids gathered from the survivors of the one before
  bool ran_ = false;       // a phase has run, whose digest outcome_ holds
  Streaming streaming_;
};

}  // namespace sb
