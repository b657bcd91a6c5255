// A streamed run's host store (schedulers/device/store_layout.hpp): over phases whose batches grow
// and shrink, every particle is read once from where the last phase wrote it, no batch's survivors
// overwrite a particle not yet run, and the population ends where the layout says it is.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/sim_state.hpp"
#include "schedulers/device/store_layout.hpp"
#include "schedulers/scheduler.hpp"
#include "sims/air/space_charge.hpp"
#include "sims/mvp/mvp.hpp"
#include "sims/pic/pic_poisson.hpp"

namespace sb {
namespace {

// A store of ids, phases run through it batch by batch as the GPU driver does: a batch's particles
// are read (and their slots freed) only once it has run, its survivors are the ids it read, each
// followed by `children` new ones, less the ids that `dies` divides (none where it is 0).
class SimulatedStore {
 public:
  SimulatedStore(uint64_t capacity, uint64_t n) : store_(capacity, kFree), layout_(capacity) {
    for (uint64_t i = 0; i < n; ++i)
      store_[i] = next_id_++;
    layout_.start_with(n);
  }

  // Runs a phase in batches of `batch`; false where the survivors would not fit (the driver's
  // CapacityError).
  bool phase(uint64_t batch, uint64_t children, uint64_t dies) {
    const uint64_t n = layout_.population();
    uint64_t written = 0;
    for (uint64_t taken = 0; taken < n; taken += batch) {
      const uint64_t count = std::min(batch, n - taken);
      const uint64_t at = layout_.taken_at(taken, count);
      std::vector<uint64_t> out;
      for (uint64_t i = at; i < at + count; ++i) {
        EXPECT_NE(store_[i], kFree) << "a particle read twice or never written, at " << i;
        if (dies == 0 || store_[i] % dies != 0) out.push_back(store_[i]);
        for (uint64_t k = 0; k < children; ++k)
          out.push_back(next_id_++);
        store_[i] = kFree;
      }
      const uint64_t not_run = n - taken - count;
      if (written + out.size() + not_run > store_.size()) return false;
      const uint64_t to = layout_.written_at(written, out.size());
      for (uint64_t k = 0; k < out.size(); ++k) {
        EXPECT_EQ(store_[to + k], kFree) << "survivors written over a particle not yet run";
        store_[to + k] = out[k];
      }
      written += out.size();
    }
    layout_.turn(written);
    return true;
  }

  // The population's ids, checked to fill the layout's range and nothing else.
  uint64_t checked_population() const {
    const uint64_t first = layout_.first(), n = layout_.population();
    for (uint64_t i = 0; i < store_.size(); ++i) {
      const bool inside = i >= first && i < first + n;
      EXPECT_EQ(store_[i] != kFree, inside) << "store index " << i;
    }
    return n;
  }

 private:
  static constexpr uint64_t kFree = UINT64_MAX;
  std::vector<uint64_t> store_;
  StoreLayout layout_;
  uint64_t next_id_ = 0;
};

TEST(StoreLayout, PhasesThatGrowAndShrinkReadEveryParticleOnceAndWriteOnlyFreeSlots) {
  // 100 particles doubling for three phases (800), then losing every third id for six.
  SimulatedStore s(1000, 100);
  std::mt19937_64 rng(7);
  for (int phase = 0; phase < 9; ++phase) {
    const uint64_t batch = 1 + rng() % 40;
    const bool grows = phase < 3;
    ASSERT_TRUE(s.phase(batch, grows ? 1 : 0, grows ? 0 : 3)) << "phase " << phase;
    const uint64_t n = s.checked_population();
    if (phase == 2) {
      EXPECT_EQ(n, 800u);
    } else if (phase > 2) {
      EXPECT_LT(n, 800u);
    }
  }
}

TEST(StoreLayout, APopulationNearTheCapacityFitsWithoutASecondCopy) {
  // 400 particles, each leaving two: 800 of a capacity of 810, in batches of 10.
  SimulatedStore s(810, 400);
  ASSERT_TRUE(s.phase(10, 1, 0));
  EXPECT_EQ(s.checked_population(), 800u);
  // The next phase, run the other way, fits as well while nothing grows.
  ASSERT_TRUE(s.phase(10, 0, 0));
  EXPECT_EQ(s.checked_population(), 800u);
}

TEST(StoreLayout, SurvivorsThatDoNotFitAreRefused) {
  SimulatedStore s(100, 60);
  EXPECT_FALSE(s.phase(10, 1, 0));  // 120 survivors of a capacity of 100
}

TEST(StoreLayout, StreamedWhereAskedOrWhereTheSlotsDoNotFit) {
  RunConfig c;
  c.capacity = 1000;
  const uint64_t fits = 40'000 + kDeviceHeadroom;  // the slots, and room for the rest
  EXPECT_FALSE(runs_streamed(c, launch_knobs::of(c), 40, 1, fits));
  EXPECT_TRUE(runs_streamed(c, launch_knobs::of(c), 40, 1, fits - 1));
  EXPECT_TRUE(runs_streamed(c, launch_knobs::of(c), 40, 2, fits));  // a second array
  launch_knobs::batch().set(c, 5000);
  EXPECT_TRUE(runs_streamed(c, launch_knobs::of(c), 40, 1, 1'000'000));
}

TEST(StoreLayout, BatchSlotsComeFromHalfTheFreeMemoryForTwoLanesOrFromBatch) {
  RunConfig c;
  c.capacity = 1'000'000'000;
  // Two lanes of 40-byte particles and 16 bytes a slot: 112 bytes a slot of each lane.
  EXPECT_EQ(batch_slots(c, launch_knobs::of(c), 40, 1, 112'000'000), 500'000u);
  EXPECT_EQ(batch_slots(c, launch_knobs::of(c), 40, 2, 192'000'000), 500'000u);  // two arrays
  launch_knobs::batch().set(c, 7000);
  EXPECT_EQ(batch_slots(c, launch_knobs::of(c), 40, 1, 112'000'000), 7000u);
  c.capacity = 5000;  // never more than the capacity
  EXPECT_EQ(batch_slots(c, launch_knobs::of(c), 40, 1, 112'000'000), 5000u);
}

// Which sims a run may stream (core/sim_state.hpp): those without grid work between phases, and
// those whose grid work gathers in passes over batches (pic's mock and Poisson fields); air's
// space charge, which needs its particles on the device at once, is refused --batch.
TEST(StreamedSims, PicsFieldsStreamAirsSpaceChargeDoesNot) {
  EXPECT_TRUE(kStreams<MvpSim>);
  EXPECT_TRUE(kStreams<AirSim>);
  EXPECT_TRUE(kStreams<PicSim>);
  EXPECT_TRUE(kStreams<PicSimIn<precision::Single>>);
  EXPECT_TRUE(kStreams<PicPoissonSim>);
  EXPECT_FALSE(kStreams<AirSpaceChargeSim>);
  RunConfig c;
  launch_knobs::batch().set(c, 5000);
  c.sim = "air";
  EXPECT_THROW(prepare_setup<AirSpaceChargeSim>(c), UsageError);
}

}  // namespace
}  // namespace sb
