// dynamic-block (seed 003 §3.1.10, §3.3.4; "Dynamic Old" in §5.3): one persistent kernel; a block
// takes the next blockDim slots from a global counter at once (the start kept in shared
// memory), each thread runs its particle to the end of the phase, and the block meets before
// taking the next chunk.
//
// Ours adds what the seed found for its newer Dynamic scheduler (§3.4.4), as cpu-sync does: a
// warp runs its chunk in iterations of a few steps with a pool of children in shared memory, a
// lane whose particle died taking a child from there (schedulers/device/pool_agent.cuh), so that
// the block meets when its warps' families are done, not after each warp's longest particle.
// When fewer than Policy::kMinLanes of a warp's lanes (half, by default) are left with work, the
// warp publishes those particles (as long as it has slots to spare: run_pooled_family), and later
// chunks take them up with others. A pooled particle that ends the phase alive takes the slot of
// one of the warp's chunk particles that died, where the warp has one (it keeps up to 64 for the
// whole phase, 520 bytes of shared memory per warp beside its pool: slot_recycler.cuh), and a new
// slot only otherwise, as dynamic-warp's do. Where the sim's particles never die (mvp, toy), no
// lane frees up before the phase end, so each thread runs its particle to the end as the seed's
// did, publishing each child in a slot of its own (run_family).
//
// The end of the phase: every slot claimed has been counted into `done`. A warp counts its
// chunk's particles once their families are done, after every slot those claimed, with one
// release per chunk; a pooled child without a slot exists only while its family runs. A reused
// slot was counted when its particle died, and the survivor written over it claims none: it
// leaves n and `done` as they were.
//
// The constants it was tuned with are a policy type (DynamicBlockPolicy; docs/design.md "Tuning
// policies"), chosen at run time with --policy.
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/persistent_pool.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

// Warp-collective: runs the particles of the warp's `slot`s (null past the capacity) as they
// are published, with their families. Returns true in the lanes that saw the end: their slot is
// past the capacity, or no particle will ever be published there. Particles that ended are
// counted into `done` before each wait for a slot, so that the end can be seen (seed §3.3.3).
template <class Sim, class Policy>
__device__ bool run_chunk(const DevicePhase<Sim>& ph,
                          WarpPool<typename Sim::Particle, Policy>& pool,
                          typename Sim::Particle* slot, SlotTally& tally) {
  bool waiting = slot != nullptr;
  unsigned int ended = 0;  // particles ended and not yet counted; lane 0 counts them
  unsigned int ns = 32;
  while (true) {
    typename Sim::Particle p;
    const bool got = waiting && is_published(slot);
    if (got) {
      p = *slot;
      waiting = false;
    }
    // Lanes still waiting only idle meanwhile: they do not hold the others up.
    if (__any_sync(kFullWarp, got)) {
      ended += run_family<Publish>(ph, pool, p, got ? slot : nullptr, true, tally);
      continue;
    }
    if ((threadIdx.x & 31) == 0 && ended != 0) count_done(ph, ended);
    ended = 0;
    if (!__any_sync(kFullWarp, waiting)) return slot == nullptr;
    bool end = false;
    if ((threadIdx.x & 31) == 0) end = all_done(ph) || stop_requested(ph);
    if (__shfl_sync(kFullWarp, end, 0)) return true;
    back_off(ns);
  }
}

template <unsigned int kPoolSize, uint32_t kSteps, unsigned int kLanes, int kRegisters>
struct DynamicBlockPolicy : PoolPolicy<kPoolSize, kSteps, ReuseDeadSlots<>> {
  static constexpr unsigned int kMinLanes = kLanes;  // run_pooled_family
  // Registers per thread for large particles (pool_register_cap). sm90's 80: 25 warps per SM for
  // pic at block 32 instead of the fewer that ptxas's own register count allowed, for a few values
  // spilled to L1: pic's mobility steps run faster than uncapped and than at 88
  // (docs/performance.md, "What each scheduler costs and why", has the times).
  static constexpr int kLargeParticleRegisters = kRegisters;

  static std::vector<PolicyConstant> constants() {
    return {{"pool", kPoolSize},
            {"steps_per_iteration", kSteps},
            {"min_lanes", kLanes},
            {"large_particle_registers", kRegisters},
            {"recycled_slots", ReuseDeadSlots<>::kKept}};
  }
};

struct DynamicBlockSm90 : DynamicBlockPolicy<32, 8, 16, 80> {
  static constexpr const char* kName = kSm90Policy;
  static constexpr const char* kDescription = kSm90What;
};
struct DynamicBlockSteps16 : DynamicBlockPolicy<32, 16, 16, 80> {
  static constexpr const char* kName = kSteps16Policy;
  static constexpr const char* kDescription = kSteps16What;
};
struct DynamicBlockMinLanes8 : DynamicBlockPolicy<32, 8, 8, 80> {
  static constexpr const char* kName = "min-lanes-8";
  static constexpr const char* kDescription =
      "a warp keeps running down to 8 lanes with work before it publishes them (sm90: 16)";
};
using DynamicBlockPolicies =
    PolicyList<DynamicBlockSm90, DynamicBlockSteps16, DynamicBlockMinLanes8>;

const SchedulerPolicies& dynamic_block_policies() {
  static const SchedulerPolicies p =
      policies_of<DynamicBlockPolicies>({{90, DynamicBlockSm90::kName}});
  return p;
}

template <class Sim, class Policy, int kRegisters>
__global__ void __maxnreg__(kRegisters) dynamic_block(DevicePhase<Sim> ph) {
  using Particle = typename Sim::Particle;
  extern __shared__ unsigned char shared[];
  WarpPool<Particle, Policy>& pool = empty_pool<Particle, Policy>(shared);
  __shared__ SlotIndex chunk;
  SlotTally tally;
  while (true) {
    if (threadIdx.x == 0) {
      chunk = add_to_counter(ph.counters->next, blockDim.x);
    }
    __syncthreads();
    const SlotIndex i = chunk + threadIdx.x;
    const bool ended = run_chunk(ph, pool, i < ph.capacity ? ph.particles + i : nullptr, tally);
    // Block-uniform exit: once any thread sees the end, every slot that will ever be published
    // in this chunk has been run. The barrier also keeps `chunk` until everyone has read it.
    if (__syncthreads_or(ended)) break;
  }
  tally.flush(ph);
}

template <class Sim>
struct DynamicBlockKernel {
  template <class Policy, bool kLargest>
  auto operator()(Policy*, std::bool_constant<kLargest>) const {
    constexpr int kOwn = pool_register_cap<Sim>(Policy::kLargeParticleRegisters);
    return dynamic_block < Sim, Policy, kLargest ? largest_block_cap<Sim>(kOwn) : kOwn > ;
  }
};

template <class Sim>
using DynamicBlock =
    PersistentPool<Sim, DynamicBlockPolicies, dynamic_block_policies, DynamicBlockKernel<Sim>>;

}  // namespace

SchedulerEntry dynamic_block_entry() {
  return {"dynamic-block",
          "one persistent kernel, each block takes the next blockDim particles at once, each "
          "thread's particle followed (where particles die) by children from its warp's "
          "shared-memory pool (seed §3.1.10, §3.3.4; \"Dynamic Old\")",
          SchedulerKind::kGpu,
          launch_knobs::grid_shape(),
          device_runners<DynamicBlock>(),
          dynamic_block_policies()};
}

}  // namespace sb
