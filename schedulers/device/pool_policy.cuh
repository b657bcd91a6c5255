// The tuning policy of the warp-pool schedulers (dynamic-warp, dynamic-block, cpu-sync), as NVIDIA
// CUB's agent policies are: a type of compile-time constants that the pool kernel takes as a
// template parameter (docs/design.md, "Tuning policies"). It carries the pool's size, the steps
// per iteration and the slot strategy; each scheduler's policy derives from it and adds its own
// constants. The device algorithm that reads it is pool_agent.cuh; the host dispatch that picks
// one at run time is pool_dispatch.cuh.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/sim_interface.hpp"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/slot_recycler.cuh"

namespace sb {

// The slot strategies: what a warp's pool does with slots, each a type that a PoolPolicy
// carries (variants as types, not flags: a strategy cannot be combined with another). kKept is
// the dead slots a warp keeps (slot_recycler.cuh).
//
// NewSlots: pooled particles that end the phase alive, and children written out of a full pool,
// claim new slots.
struct NewSlots {
  static constexpr unsigned int kKept = 0;
};
// ReuseDeadSlots: a pooled particle that ends alive takes the slot of one of the warp's own
// particles that died (end_pooled) before it claims a new one.
template <unsigned int kSlots = kRecycledSlotsPerWarp>
struct ReuseDeadSlots {
  static_assert(kSlots > 0, "a strategy that reuses dead slots keeps some");
  static constexpr unsigned int kKept = kSlots;
};
// SpillToDeadSlots: as ReuseDeadSlots, and a full pool's children go to those dead slots first
// (spill_children), the warp taking them back (take_spilled) before it fetches new work.
template <unsigned int kSlots = kRecycledSlotsPerWarp>
struct SpillToDeadSlots : ReuseDeadSlots<kSlots> {};
// QueueInDeadSlots: as ReuseDeadSlots, and children written out for other warps are handed out
// through a queue of slot indices (work_queue.cuh), in the warp's dead slots or in those its group
// of warps gave (shared_dead_slots.cuh), before new ones.
template <unsigned int kSlots = kRecycledSlotsPerWarp>
struct QueueInDeadSlots : ReuseDeadSlots<kSlots> {};

template <class Slots>
inline constexpr bool kSpillsChildren = false;
template <unsigned int kSlots>
inline constexpr bool kSpillsChildren<SpillToDeadSlots<kSlots>> = true;

template <class Slots>
inline constexpr bool kQueuesChildren = false;
template <unsigned int kSlots>
inline constexpr bool kQueuesChildren<QueueInDeadSlots<kSlots>> = true;

// The constants of the warp pool that every pool kernel's policy shares; each scheduler's policy
// adds its own (schedulers/dynamic_warp.cu, dynamic_block.cu, cpu_sync.cu).
template <unsigned int kPoolSize, uint32_t kSteps, class SlotStrategy>
struct PoolPolicy {
  using Slots = SlotStrategy;
  // Children per warp: at least one warp-step's worst case (a child from every lane), in whole
  // warps so that a write-out is whole warp-wide stores.
  static constexpr unsigned int kPool = kPoolSize;
  static constexpr uint32_t kStepsPerIteration = kSteps;
  // What the strategy implies, as the pool agent reads it.
  static constexpr unsigned int kRecycled = Slots::kKept;
  static constexpr bool kSpill = kSpillsChildren<Slots>;
  static constexpr bool kQueue = kQueuesChildren<Slots>;
  static_assert(kPool >= 32 && kPool % 32 == 0, "a pool holds whole warps of children");
  static_assert(kSteps >= 4 && kSteps % 4 == 0, "whole Philox blocks per iteration");
};

// The policy that `Policy` is for a sim: where the sim's particles never die (kParticlesDie,
// core/sim_interface.hpp) a pool that only reuses dead slots for its survivors keeps none, which
// spares mvp's and toy's warps 520 bytes of shared memory each (docs/performance.md, "Slots and
// the live population", has what they cost). A strategy that spills or queues children keeps its
// array: those use it for more than dead slots.
template <class Policy>
struct WithoutDeadSlots : Policy {
  using Slots = NewSlots;
  static constexpr unsigned int kRecycled = 0;
};
template <class Sim, class Policy>
using PoolPolicyFor = std::conditional_t<kParticlesDie<Sim> || Policy::kSpill || Policy::kQueue,
                                         Policy, WithoutDeadSlots<Policy>>;

// What the pool schedulers' policies of the same name share.
inline constexpr const char* kSm90Policy = "sm90";
inline constexpr const char* kSm90What = "the constants measured on the H100";
inline constexpr const char* kSteps16Policy = "steps-16";
inline constexpr const char* kSteps16What =
    "16 steps per iteration: half the bookkeeping per step, up to 15 idle steps per particle";

// The register cap of a kernel that runs warp pools of `Sim`'s particles: `large` for a long step
// (kLargeStep, core/sim_interface.hpp), so that more warps reside than ptxas's own register count
// would allow (pic), but no fewer than the sim's step asks for (kStepRegisters).
// Smaller particles are capped too, since the kernel's one attribute covers every sim, and under
// a cap ptxas takes registers up to it: at 64, which toy and mvp need at most, and with which a
// block of 1024 threads still fits on an SM.
template <class Sim>
constexpr int pool_register_cap(int large) {
  return kLargeStep<Sim> ? std::max(large, kStepRegisters<Sim>) : 64;
}

}  // namespace sb
