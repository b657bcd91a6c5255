// Our Philox4x32-10 on the device gives the same bits as cuRAND's curand_Philox4x32_10 and as
// our host implementation, for the same counter and key; and step draws agree across sides.
#include <curand_kernel.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <vector>

#include "core/cuda_check.hpp"
#include "core/draws.hpp"
#include "core/hash.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/summary.hpp"

namespace sb {
namespace {

// Varied counters and keys, all bits exercised: derived from i by a bijective mix.
__host__ __device__ Philox4x32Counter counter_of(uint32_t i) {
  const uint64_t a = mix64(i), b = mix64(a);
  return {static_cast<uint32_t>(a), static_cast<uint32_t>(a >> 32), static_cast<uint32_t>(b),
          static_cast<uint32_t>(b >> 32)};
}

__host__ __device__ Philox4x32Key key_of(uint32_t i) {
  const uint64_t k = mix64(~uint64_t{i});
  return {static_cast<uint32_t>(k), static_cast<uint32_t>(k >> 32)};
}

__global__ void both_generators(uint32_t n, Philox4x32Output* ours, Philox4x32Output* curand) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Philox4x32Counter c = counter_of(i);
  const Philox4x32Key k = key_of(i);
  ours[i] = philox4x32_10(c, k);
  const uint4 r = curand_Philox4x32_10(make_uint4(c.w0, c.w1, c.w2, c.w3), make_uint2(k.k0, k.k1));
  curand[i] = {r.x, r.y, r.z, r.w};
}

bool same(const Philox4x32Output& a, const Philox4x32Output& b) {
  return a.w0 == b.w0 && a.w1 == b.w1 && a.w2 == b.w2 && a.w3 == b.w3;
}

TEST(CurandPhilox, SameBitsAsOursOnDeviceAndHost) {
  SB_REQUIRE_CUDA_DEVICE();
  constexpr uint32_t n = 1u << 20;
  DeviceBuffer<Philox4x32Output> ours(n, "our draws"), curand(n, "cuRAND draws");
  both_generators<<<(n + 255) / 256, 256>>>(n, ours.data(), curand.data());
  SB_CUDA_CHECK(cudaGetLastError());
  const std::vector<Philox4x32Output> o = ours.to_host(), c = curand.to_host();
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const Philox4x32Output host = philox4x32_10(counter_of(i), key_of(i));
    if (!same(o[i], c[i]) || !same(host, c[i])) ++mismatches;
  }
  EXPECT_EQ(mismatches, 0u);
  testing_support::summary().push_back(
      {"Philox4x32-10: ours (device, host) vs cuRAND", fmt::format("{} counters and keys", n),
       mismatches == 0 ? "identical" : fmt::format("{} differ", mismatches)});
}

__global__ void step_draws_on_device(uint32_t n, uint32_t steps, uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t base = i % 7;  // particles that start at different steps
  StepDraws draws(DrawKey::from_seed(0xC0FFEE), child_id(i, 3), base);
  for (uint32_t t = 0; t < steps; ++t)
    out[i * steps + t] = draws.at(base + t);
}

TEST(StepDraws, DeviceCursorEqualsHostCursor) {
  SB_REQUIRE_CUDA_DEVICE();
  constexpr uint32_t n = 4096, steps = 37;
  DeviceBuffer<uint32_t> out(n * steps, "the draws");
  step_draws_on_device<<<n / 128, 128>>>(n, steps, out.data());
  SB_CUDA_CHECK(cudaGetLastError());
  const std::vector<uint32_t> device = out.to_host();
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t base = i % 7;
    StepDraws draws(DrawKey::from_seed(0xC0FFEE), child_id(i, 3), base);
    for (uint32_t t = 0; t < steps; ++t)
      mismatches += device[i * steps + t] != draws.at(base + t);
  }
  EXPECT_EQ(mismatches, 0u);
  testing_support::summary().push_back(
      {"step draws: device vs host", fmt::format("{} particles x {} steps", n, steps),
       mismatches == 0 ? "identical" : fmt::format("{} differ", mismatches)});
}

}  // namespace
}  // namespace sb
