// Grid sizing from the device, and cooperative launches.
#pragma once

#include <fmt/format.h>

#include <string>
#include <tuple>
#include <utility>

#include "core/cuda_check.hpp"
#include "core/errors.hpp"
#include "core/sim_interface.hpp"
#include "schedulers/device/phase.cuh"

namespace sb {

// Registers and block sizes (docs/performance.md, "Registers and block sizes"). A block fits on an
// SM only if its threads' registers do: 64 K of them, so 64 per thread for a block of 1024. ptxas
// gives the kernels of long steps (pic's and air's, kLargeStep) more than 64, which would leave the
// largest blocks unlaunchable. So each scheduler kernel takes its launch bound (or, for kernels
// that already cap their registers, its cap) as a template parameter, and such sims get a second
// instantiation, bounded to blocks of 1024, that runs where a block of the first does not fit.
// Toy's and mvp's kernels fit in blocks of 1024 as they are and are compiled once.
inline constexpr int kAnyBlock = 0;         // __launch_bounds__(0): no bound, ptxas's registers
inline constexpr int kLargestBlock = 1024;  // __launch_bounds__(1024): at most 64 registers

// A kernel's launch bound: none for kAnyBlock; for kLargestBlock, blocks of 1024 with one of them
// per SM, which lets ptxas take the 64 registers that allows (told the block size alone, it took
// fewer for some of air's kernels and spilled the more).
#define SB_BLOCK_BOUND(bound) __launch_bounds__((bound), (bound) == 0 ? 0 : 1)

// The launch bound of the instantiation that runs blocks too large for the unbounded one: sims
// whose kernels take more registers than a block of 1024 threads leaves them
// (core/sim_interface.hpp) get one.
template <class Sim>
inline constexpr int kLargestBlockBound = kLargeStep<Sim> ? kLargestBlock : kAnyBlock;

// The register cap of that instantiation, for a kernel capped at `own` registers.
template <class Sim>
constexpr int largest_block_cap(int own) {
  constexpr int kFits = 65536 / kLargestBlock;
  return kLargeStep<Sim> && own > kFits ? kFits : own;
}

// The launch bound of the instantiation for the configured block, in schedulers that hold one
// particle in registers through its whole phase (static-full, dynamic-thread): for sims of long
// steps, blocks of up to 512 threads, which caps ptxas at 128 registers. Unbounded, it takes more
// for air (its electrons carry the start of their paths), and an SM then holds 3 blocks of 128
// threads instead of 4 (docs/performance.md, "Real collisions per second (air)"). Blocks of more
// than 512 threads run the largest-block instantiation.
inline constexpr int kHalfBlock = 512;
template <class Sim>
inline constexpr int kWholePhaseBound = kLargeStep<Sim> ? kHalfBlock : kAnyBlock;

// `own` where a block of the configured size fits on an SM, else `capped` (its instantiation
// under largest_block_cap), with `shared_bytes` of dynamic shared memory per block, which both
// are first allowed: a kernel whose static and dynamic shared memory pass 48 KB must ask for the
// dynamic (CUDA C++ Programming Guide, "Shared Memory"). For small particles the two are one
// kernel.
template <class Kernel>
Kernel kernel_for_block(Kernel own, Kernel capped, const DeviceSetup& s, size_t shared_bytes = 0) {
  if (shared_bytes > 0) {
    for (const Kernel k : {own, capped}) {
      SB_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shared_bytes)));
    }
  }
  if (own == capped) return own;
  // A kernel bounded to smaller blocks (kWholePhaseBound) cannot launch this one, which the
  // occupancy below does not tell.
  cudaFuncAttributes attributes{};
  SB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, own));
  if (s.knobs.block_size > static_cast<uint32_t>(attributes.maxThreadsPerBlock)) return capped;
  int most = 0;
  SB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &most, own, static_cast<int>(s.knobs.block_size), shared_bytes));
  return most > 0 ? own : capped;
}

// The most blocks of the configured size that fit on one SM for `kernel`; throws RunError
// (naming the scheduler and the size) when not even one does: too many registers or too much
// shared memory for a block that large.
template <class Kernel>
uint32_t blocks_that_fit(Kernel kernel, const DeviceSetup& s, size_t shared_bytes = 0) {
  int most = 0;
  SB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &most, kernel, static_cast<int>(s.knobs.block_size), shared_bytes));
  if (most == 0) {
    throw RunError(fmt::format("{}: a block of {} threads does not fit on one SM",
                               s.config.scheduler, s.knobs.block_size));
  }
  return static_cast<uint32_t>(most);
}

// Blocks per SM for a persistent grid of `kernel`: the occupancy maximum (--blocks-per-sm fill)
// or the number asked for, which may not exceed it.
template <class Kernel>
uint32_t blocks_per_sm(Kernel kernel, const DeviceSetup& s, size_t shared_bytes) {
  const uint32_t most = blocks_that_fit(kernel, s, shared_bytes);
  const uint32_t asked = s.knobs.blocks_per_sm;
  if (asked == 0) return most;
  if (asked > most) {
    throw UsageError(fmt::format(
        "--blocks-per-sm: {} is more than the {} blocks of {} threads that fit on an SM for {}; "
        "accepted: fill or 1 to {}",
        asked, most, s.knobs.block_size, s.config.scheduler, most));
  }
  return asked;
}

// A persistent grid: blocks_per_sm() blocks on every SM.
template <class Kernel>
uint32_t persistent_grid(Kernel kernel, const DeviceSetup& s, size_t shared_bytes = 0) {
  return blocks_per_sm(kernel, s, shared_bytes) * static_cast<uint32_t>(s.device.sm_count);
}

// Launches `kernel` so that all its blocks are resident at once (or fails): the guarantee that
// grid-wide barriers and static slot assignment need.
template <class... Params, class... Args>
void launch_cooperative(void (*kernel)(Params...), uint32_t grid, uint32_t block,
                        size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  std::tuple<Params...> values(std::forward<Args>(args)...);
  std::apply(
      [&](auto&... v) {
        void* argv[] = {static_cast<void*>(&v)...};
        SB_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), dim3(grid),
                                                  dim3(block), argv, shared_bytes, stream));
      },
      values);
}

// Launches `kernel` in blocks of the configured size on the setup's stream. A block that needs
// more registers than an SM has (its size times the kernel's registers per thread) is a RunError
// that names the scheduler and the size, as blocks_that_fit() makes it for the schedulers that
// size their grids from the device.
template <class... Params, class... Args>
void launch(const DeviceSetup& s, void (*kernel)(Params...), uint32_t grid, size_t shared_bytes,
            Args&&... args) {
  kernel<<<grid, s.knobs.block_size, shared_bytes, s.stream>>>(std::forward<Args>(args)...);
  const cudaError_t e = cudaGetLastError();
  if (e == cudaErrorLaunchOutOfResources) {
    throw RunError(
        fmt::format("{}: a block of {} threads needs more registers than an SM has; a smaller "
                    "--block-size fits",
                    s.config.scheduler, s.knobs.block_size));
  }
  if (e != cudaSuccess) {
    throw_cuda_error(e, fmt::format("{}'s launch of {} blocks of {} threads ({} B shared; or an "
                                    "earlier asynchronous error)",
                                    s.config.scheduler, grid, s.knobs.block_size, shared_bytes));
  }
}

}  // namespace sb
