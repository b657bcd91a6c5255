// Where a streamed run's particles lie (schedulers/device/batches.cuh), kept apart from the CUDA
// code so that the host tests check it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/run_config.hpp"
#include "schedulers/device/launch_parameters.hpp"

namespace sb {

// What a run leaves free beside its particle slots when it decides whether they fit: the
// memory that the scheduler's lists, the compaction's scratch, the sim's grids and, over several
// ranks, NCCL's buffers take as the run goes, which a device filled by its slots would not have.
inline constexpr uint64_t kDeviceHeadroom = uint64_t{1} << 30;

// Whether a GPU run streams its particles from host memory: where --batch asks for it, or where
// the particle slots of --capacity (`arrays` particle arrays, two unless the compaction is in
// place) and kDeviceHeadroom do not fit in the device's `free_bytes`. Asked only for sims that
// stream (kStreams, core/sim_state.hpp): the others need all their particles on the device.
inline bool runs_streamed(const RunConfig& c, const LaunchKnobs& k, uint64_t particle_bytes,
                          uint64_t arrays, uint64_t free_bytes) {
  return k.batch > 0 || arrays * c.capacity * particle_bytes + kDeviceHeadroom > free_bytes;
}

// The device slots of a batch per lane: --batch, or what half the free memory holds for two lanes
// (the particle arrays the compaction keeps, and 16 bytes a slot for a scheduler's own lists),
// never more than the capacity.
inline uint64_t batch_slots(const RunConfig& c, const LaunchKnobs& k, uint64_t particle_bytes,
                            uint64_t arrays, uint64_t free_bytes) {
  if (k.batch > 0) return std::min(k.batch, c.capacity);
  const uint64_t per_slot = 2 * (arrays * particle_bytes + 16);
  return std::min<uint64_t>(c.capacity, free_bytes / 2 / per_slot);
}

// Where a phase's particles lie in the host store. The population fills one end; batches are
// taken from its inner edge outward (the t-th particle taken lies next to the free middle), and
// survivors are written from the other end inward. Taking and writing never meet while the
// particles not yet run and those written fit in the capacity.
class StoreLayout {
 public:
  explicit StoreLayout(uint64_t capacity) : capacity_(capacity) {}

  uint64_t population() const { return n_; }
  void start_with(uint64_t n) { n_ = n, at_front_ = true; }

  // The store index of the first of `count` particles taken after `taken` others this phase.
  uint64_t taken_at(uint64_t taken, uint64_t count) const {
    return at_front_ ? n_ - taken - count : capacity_ - n_ + taken;
  }
  // The store index of the first of `count` survivors written after `written` others.
  uint64_t written_at(uint64_t written, uint64_t count) const {
    return at_front_ ? capacity_ - written - count : written;
  }
  // The first store index of the population.
  uint64_t first() const { return at_front_ ? 0 : capacity_ - n_; }
  // The phase wrote `written` survivors: they are the population now, at the other end.
  void turn(uint64_t written) { n_ = written, at_front_ = !at_front_; }

 private:
  uint64_t capacity_;
  uint64_t n_ = 0;
  bool at_front_ = true;
};

}  // namespace sb
