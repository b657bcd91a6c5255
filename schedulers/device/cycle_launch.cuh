// The host side of a scheduler of whole cycles (docs/design.md §4, "Several phases in one
// launch"): persistent-cycle's cooperative kernel and graph-cycle's CUDA graph are engines of
// it. It keeps what a launch needs beside its engine (the second list of slots, the engine's
// counters, each block's partial counts and sums of every phase), makes the engine anew for the
// shared memory of the sim's grid work, and turns a launch's end into the driver's WholePhases:
// the phases' sums by sum_partials (cycle_step.cuh), the survivors moved back to the first list.
//
// An Engine<Sim, Grid> is made from (const DeviceSetup&, the grid work's shared bytes), names
// its blocks by grid(), and by run(const CycleBuffers<Sim, State>&, first, n, phases, steps,
// grid) queues a launch on the run's stream that leaves in its State the list that holds the
// survivors (`list`), their count (`n`) and the most slots a step asked for (`claimed`).
#pragma once

#include <fmt/format.h>

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "schedulers/device/cycle_step.cuh"
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"

namespace sb {

// What a launch of whole cycles writes, in device memory.
template <class Sim, class State>
struct CycleBuffers {
  typename Sim::Particle* lists[2];  // the first phase's particles, and the second list
  State* state;
  PhaseRecord* records;      // [phase][block]
  ObservedSums<Sim>* sums;   // [phase][block]
};

template <class Sim, class State, template <class, class> class Engine>
class WholeCycles {
  using Particle = typename Sim::Particle;
  using Sums = ObservedSums<Sim>;
  static_assert(sizeof(StepGridOf<Sim>) > 0, "a sim's StepGrid is defined with its device state");

 public:
  // `name` is the scheduler's, for its messages; a launch runs at most `asked` phases, fewer
  // where their partial sums would not fit (kPartialBytes).
  WholeCycles(const DeviceSetup& s, std::string_view name, uint64_t asked)
      : s_(s),
        plain_(s, 0),
        labels_{fmt::format("{}'s second list of slots (--capacity)", name),
                fmt::format("{}'s counters", name), fmt::format("{}'s partial counts", name),
                fmt::format("{}'s partial sums", name),
                fmt::format("{}'s counts of each phase", name),
                fmt::format("{}'s sums of each phase", name)},
        other_(s.config.capacity, labels_[0].c_str()),
        state_(1, labels_[1].c_str()),
        records_(labels_[2].c_str()),
        sums_(labels_[3].c_str()),
        phase_records_(labels_[4].c_str()),
        phase_sums_(labels_[5].c_str()) {
    if (s.knobs.block_size % 32 != 0) {
      throw UsageError(fmt::format(
          "--block-size {}: {}'s blocks are whole warps; accepted: a multiple of 32",
          s.knobs.block_size, name));
    }
    // The grid work's shared memory only makes the grid smaller.
    phases_ = phases_within_partials<Sim>(plain_.grid(), asked);
  }

  uint32_t phases_per_launch() const { return phases_; }

  WholePhases<Sim> run_phases(const DevicePhase<Sim>& first, SlotIndex n, uint32_t phases,
                              uint32_t steps, const StepGridOf<Sim>* grid) {
    if constexpr (kGridInside<Sim>) {
      if (grid != nullptr) {
        const size_t bytes = grid->shared_bytes();
        if (!inside_ || inside_bytes_ != bytes) {
          inside_.emplace(s_, bytes);
          inside_bytes_ = bytes;
        }
        return launch(*inside_, *grid, first, n, phases, steps);
      }
    }
    return launch(plain_, NoStepGrid<Sim>{}, first, n, phases, steps);
  }

 private:
  template <class Grid>
  WholePhases<Sim> launch(Engine<Sim, Grid>& engine, const Grid& grid,
                          const DevicePhase<Sim>& first, SlotIndex n, uint32_t phases,
                          uint32_t steps) {
    const cudaStream_t stream = s_.stream;
    const size_t partials = size_t{phases} * engine.grid();
    records_.reserve(partials);
    sums_.reserve(partials);
    phase_records_.reserve(phases);
    phase_sums_.reserve(phases);
    SB_CUDA_CHECK(cudaMemsetAsync(state_.data(), 0, sizeof(State), stream));
    engine.run(CycleBuffers<Sim, State>{{first.particles, other_.data()}, state_.data(),
                                        records_.data(), sums_.data()},
               first, n, phases, steps, grid);
    constexpr uint32_t kSumBlock = 128;
    sum_partials<<<blocks_for(phases, kSumBlock), kSumBlock, 0, stream>>>(
        records_.data(), sums_.data(), engine.grid(), phases, phase_records_.data(),
        phase_sums_.data());
    SB_CUDA_CHECK(cudaGetLastError());
    s_.watchdog.sync(stream);
    WholePhases<Sim> out;
    const State end = state_.to_host().front();
    out.claimed = end.claimed;
    out.n = end.n;
    out.records = phase_records_.to_host(phases);
    out.sums = phase_sums_.to_host(phases);
    if (end.list == 1 && end.n > 0) {
      SB_CUDA_CHECK(cudaMemcpyAsync(first.particles, other_.data(), end.n * sizeof(Particle),
                                    cudaMemcpyDeviceToDevice, stream));
    }
    return out;
  }

  const DeviceSetup& s_;
  Engine<Sim, NoStepGrid<Sim>> plain_;
  std::optional<Engine<Sim, StepGridOf<Sim>>> inside_;  // made for the first grid's memory
  size_t inside_bytes_ = 0;
  const std::array<std::string, 6> labels_;  // what each buffer holds, for its AllocationError
  DeviceBuffer<Particle> other_;
  DeviceBuffer<State> state_;
  DeviceBuffer<PhaseRecord> records_;
  DeviceBuffer<Sums> sums_;
  DeviceBuffer<PhaseRecord> phase_records_;
  DeviceBuffer<Sums> phase_sums_;
  uint32_t phases_ = 1;
};

}  // namespace sb
