// Slot indices and counters are 64-bit (docs/design.md §3): claims, counters and thread indices
// past 2^32 come out whole, where 32-bit ones would wrap. No run can show it on one GPU, since
// 2^32 slots of the smallest particle (40 bytes) need 172 GB.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/cuda_check.hpp"
#include "schedulers/device/slots.cuh"
#include "tests/support/gpu.hpp"

namespace sb {
namespace {

// The least a DevicePhase needs: claims touch only the counters and the capacity.
struct CountingSim {
  struct Particle {
    ParticleTag tag;
  };
  struct Params {};
};

constexpr SlotIndex kTwoTo32 = SlotIndex{1} << 32;

__global__ void claim_one_each(DevicePhase<CountingSim> ph, SlotIndex* firsts) {
  firsts[threadIdx.x] = claim_slots(ph, 1);
}

__global__ void claim(DevicePhase<CountingSim> ph, SlotIndex count, SlotIndex* first) {
  *first = claim_slots(ph, count);
}

__global__ void last_thread_index(SlotIndex* index, SlotIndex* threads) {
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1) {
    *index = grid_thread_index();
    *threads = grid_threads();
  }
}

DevicePhase<CountingSim> phase_of(DeviceCounters* counters, SlotIndex capacity) {
  return {nullptr, capacity, counters, nullptr, {}, {}, {}};
}

TEST(GpuSlots, ClaimsAcrossTwoTo32AreDistinctAndCounted) {
  SB_REQUIRE_CUDA_DEVICE();
  constexpr unsigned int kThreads = 256;
  DeviceBuffer<DeviceCounters> counters(1, "the counters");
  DeviceBuffer<SlotIndex> firsts(kThreads, "the claims");
  const DeviceCounters start = counters_at_start(kTwoTo32 - 100);
  SB_CUDA_CHECK(cudaMemcpy(counters.data(), &start, sizeof start, cudaMemcpyHostToDevice));
  claim_one_each<<<1, kThreads>>>(phase_of(counters.data(), 2 * kTwoTo32), firsts.data());
  SB_CUDA_CHECK(cudaGetLastError());
  std::vector<SlotIndex> got = firsts.to_host();
  std::sort(got.begin(), got.end());
  for (unsigned int k = 0; k < kThreads; ++k)
    ASSERT_EQ(got[k], kTwoTo32 - 100 + k) << "claim " << k;
  const DeviceCounters end = counters.to_host().front();
  EXPECT_EQ(end.n, kTwoTo32 - 100 + kThreads);
  EXPECT_EQ(end.overflow, 0u);
}

TEST(GpuSlots, AClaimPastACapacityAboveTwoTo32Overflows) {
  SB_REQUIRE_CUDA_DEVICE();
  DeviceBuffer<DeviceCounters> counters(1, "the counters");
  DeviceBuffer<SlotIndex> first(1, "the claim");
  const SlotIndex capacity = kTwoTo32 + 10;
  const DeviceCounters start = counters_at_start(kTwoTo32);
  SB_CUDA_CHECK(cudaMemcpy(counters.data(), &start, sizeof start, cudaMemcpyHostToDevice));
  // 10 fit exactly; one more does not.
  claim<<<1, 1>>>(phase_of(counters.data(), capacity), 10, first.data());
  SB_CUDA_CHECK(cudaGetLastError());
  EXPECT_EQ(first.to_host().front(), kTwoTo32);
  EXPECT_EQ(counters.to_host().front().overflow, 0u);
  claim<<<1, 1>>>(phase_of(counters.data(), capacity), 1, first.data());
  SB_CUDA_CHECK(cudaGetLastError());
  EXPECT_EQ(first.to_host().front(), capacity);  // "no room"
  const DeviceCounters end = counters.to_host().front();
  EXPECT_EQ(end.overflow, 1u);
  EXPECT_EQ(end.n, capacity + 1);
}

TEST(GpuSlots, ThreadIndicesOfAGridPastTwoTo32AreWhole) {
  SB_REQUIRE_CUDA_DEVICE();
  constexpr unsigned int kBlock = 1024;
  const auto blocks = static_cast<unsigned int>(kTwoTo32 / kBlock + 1);
  DeviceBuffer<SlotIndex> index(1, "the index"), threads(1, "the thread count");
  last_thread_index<<<blocks, kBlock>>>(index.data(), threads.data());
  SB_CUDA_CHECK(cudaGetLastError());
  EXPECT_EQ(threads.to_host().front(), SlotIndex{blocks} * kBlock);
  EXPECT_EQ(index.to_host().front(), SlotIndex{blocks} * kBlock - 1);
}

}  // namespace
}  // namespace sb
