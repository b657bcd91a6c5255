// The warp pool's host dispatch: the kernel of the tuning policy a run selects (--policy,
// pool_policy.cuh), allowed the shared memory of its warps' pools (pool_agent.cuh's WarpPool).
// persistent_pool.cuh and cpu-sync take their kernels from here.
#pragma once

#include <type_traits>

#include "core/cuda_check.hpp"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/pool_agent.cuh"
#include "schedulers/device/pool_policy.cuh"
#include "schedulers/policy.hpp"

namespace sb {

// The dynamic shared memory for the pools of a block of `block_size` threads.
template <class Particle, class Policy>
constexpr size_t pool_bytes(uint32_t block_size) {
  return block_size / 32 * sizeof(WarpPool<Particle, Policy>);
}

template <class Kernel>
struct PoolKernel {
  Kernel kernel = nullptr;
  size_t shared_bytes = 0;  // dynamic shared memory per block: the pools of its warps
  bool work_queue = false;  // the policy hands out work through a WorkQueue
};

// Throws RunError, as blocks_that_fit does, where `kernel`'s block of the configured size would
// need more shared memory than a block may have: its own and `pool_shared_bytes` for its pools
// (cudaFuncSetAttribute would fail with a CUDA error). On sm_90 (227 KB a block) that is cpu-sync's
// pool-64 with air's space charge (112-byte particles) at blocks of 992 and 1024 threads, since
// its warps keep dead slots (520 bytes a warp) beside their pools.
template <class Kernel>
void require_pools_fit(Kernel kernel, const DeviceSetup& s, size_t pool_shared_bytes) {
  int most = 0;
  SB_CUDA_CHECK(
      cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, s.device.index));
  cudaFuncAttributes attributes{};
  SB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  const size_t needed = attributes.sharedSizeBytes + pool_shared_bytes;
  if (needed > static_cast<size_t>(most)) {
    throw RunError(fmt::format(
        "{}: a block of {} threads does not fit on one SM: it needs {} bytes of shared memory "
        "({} for its warps' pools), more than the {} a block may have",
        s.config.scheduler, s.knobs.block_size, needed, pool_shared_bytes, most));
  }
}

// The kernel for the policy of `List` (a PolicyList) that the run selects (--policy, `default`
// resolved for the device), allowed the shared memory of its pools. `kernel_of(policy, largest)`
// gives the policy's kernel (`largest` std::false_type) and its instantiation for blocks too
// large for it (std::true_type; grid.cuh, "Registers and block sizes"); the first runs where a
// block of it fits.
template <class List, class Sim, class Kernel, class KernelOf>
PoolKernel<Kernel> pool_kernel(const SchedulerPolicies& policies, const DeviceSetup& s,
                               KernelOf kernel_of) {
  // A particle type would compile here too (its injected class name is a `Particle`), and size
  // the pools of a derived particle by its base.
  static_assert(!std::is_same_v<Sim, typename Sim::Particle>, "pool_kernel takes the sim");
  PoolKernel<Kernel> out;
  List::with(policies.resolve(s.config, s.device), [&](auto* selected) {
    using Policy = PoolPolicyFor<Sim, std::remove_pointer_t<decltype(selected)>>;
    Policy* const policy = nullptr;
    const Kernel own = kernel_of(policy, std::false_type{});
    const Kernel largest = kernel_of(policy, std::true_type{});
    out.shared_bytes = pool_bytes<typename Sim::Particle, Policy>(s.knobs.block_size);
    out.work_queue = Policy::kQueue;
    require_pools_fit(own, s, out.shared_bytes);
    out.kernel = kernel_for_block(own, largest, s, out.shared_bytes);
  });
  return out;
}

}  // namespace sb
