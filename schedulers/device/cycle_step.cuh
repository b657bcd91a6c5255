// One step of a scheduler of whole phases (whole_phases.cuh) that moves its particles from one
// list of slots into the other: persistent-cycle runs it between grid barriers inside one kernel,
// graph-cycle runs it as a kernel of a CUDA graph (docs/design.md §4, "Several phases in one
// launch"). The survivors and their children are packed by one atomic add a block and deposited
// for the next step as they are stored; the counts and the sim's sums of a phase are kept a
// partial sum a block, summed by sum_partials once the launch ends.
#pragma once

#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

#include <algorithm>
#include <type_traits>

#include "schedulers/device/phase.cuh"
#include "schedulers/device/slots.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/device/whole_phases.cuh"

namespace sb {

// The sum of every thread's v over the block, in thread 0: over each warp, then over the warps'
// sums by the first warp. Every thread of the block calls it; T() is the sum of none.
template <class T>
__device__ T block_sum(T v) {
  if constexpr (std::is_same_v<T, NoPhaseSums>) {
    return v;
  } else {
    using Reduce = cub::WarpReduce<T>;
    __shared__ typename Reduce::TempStorage temp[32];
    __shared__ alignas(alignof(T)) unsigned char raw[32 * sizeof(T)];
    T* warps = reinterpret_cast<T*>(raw);
    const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = Reduce(temp[warp]).Sum(v);
    if (lane == 0) warps[warp] = v;
    __syncthreads();
    if (warp == 0) {
      v = lane < blockDim.x / 32 ? warps[lane] : T{};
      v = Reduce(temp[0]).Sum(v);
    }
    __syncthreads();
    return v;
  }
}

// Slots for this thread's `count` particles (0, 1 or 2) at `counter`, one atomic add for the
// whole block: the first of them. Where they pass the capacity the run's overflow flag is set
// and the run fails with CapacityError; slots at and past it are not stored. Every thread of the
// block calls it; its blocks are whole warps.
template <class Sim>
__device__ SlotIndex claim_in_block(const DevicePhase<Sim>& ph, SlotIndex& counter,
                                    uint32_t count) {
  using Scan = cub::WarpScan<uint32_t>;
  __shared__ typename Scan::TempStorage temp[32];
  __shared__ uint32_t warp_first[32];
  __shared__ SlotIndex block_first;
  const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  uint32_t before, of_warp;  // this lane's firsts in the warp, and the warp's total
  Scan(temp[warp]).ExclusiveSum(count, before, of_warp);
  if (lane == 0) warp_first[warp] = of_warp;
  __syncthreads();
  if (warp == 0) {  // the warps' totals to their firsts, by the first warp
    const uint32_t mine = lane < blockDim.x / 32 ? warp_first[lane] : 0;
    uint32_t first, total;
    Scan(temp[0]).ExclusiveSum(mine, first, total);
    if (lane < blockDim.x / 32) warp_first[lane] = first;
    if (lane == 0) {
      block_first = total == 0 ? 0 : add_to_counter(counter, total);
      if (block_first + total > ph.capacity) {
        DeviceAtomicU32(ph.counters->overflow).store(kSlotsFull, cuda::memory_order_relaxed);
      }
    }
  }
  __syncthreads();
  const SlotIndex first = block_first + warp_first[warp] + before;
  __syncthreads();  // read before the next claim writes them
  return first;
}

// Step t of phase ph for the n particles of `from`: each moved, the survivors and their children
// stored in `to` at slots claimed at `length`, and deposited for step t + 1 (grid's deposit, into
// `shared` where the grid sums them there). On the phase's last step (`last`) the stored are
// counted into `mine` and observed into `sums`; the dead are counted as they die. Every thread
// of the block calls it: the block walks the list together, as claim_in_block needs.
template <class Sim, class Grid>
__device__ void move_step(const DevicePhase<Sim>& ph, const Grid& grid,
                          const typename Sim::Particle* from, typename Sim::Particle* to,
                          SlotIndex n, SlotIndex& length, uint32_t t, bool last,
                          unsigned long long* shared, PhaseRecord& mine,
                          ObservedSums<Sim>& sums) {
  using Particle = typename Sim::Particle;
  const SlotIndex stride = SlotIndex{gridDim.x} * blockDim.x;
  for (SlotIndex base = SlotIndex{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const SlotIndex i = base + threadIdx.x;
    Particle p{}, child{};
    bool kept = false, spawned = false;
    if (i < n) {
      p = from[i];
      if (has_work(p.tag, ph.window)) spawned = step_once(ph, p, child);
      kept = is_alive(p.tag);
      if (!kept) {
        ++mine.died;
        mine.steps += steps_in_phase(p, ph.window);
      }
      mine.spawned += spawned ? 1 : 0;
    }
    const SlotIndex slot = claim_in_block(ph, length, (kept ? 1u : 0u) + (spawned ? 1u : 0u));
    const auto store = [&](const Particle& q, SlotIndex at) {
      if (at < ph.capacity) to[at] = q;
      grid.deposit(q, t + 1, shared);
      if (last) {
        mine.steps += steps_in_phase(q, ph.window);
        if constexpr (Observes<Sim>::value) sums = sums + Sim::phase_sums(q, ph.params, ph.window);
      }
    };
    if (kept) store(p, slot);
    if (spawned) store(child, slot + (kept ? 1 : 0));
  }
}

// The grid's deposit of the n particles of `list` alive as step t starts: every block's part,
// through its shared sums where the grid has them. Every thread of the block calls it.
template <class Sim, class Grid>
__device__ void deposit_all(const Grid& grid, const typename Sim::Particle* list, SlotIndex n,
                            uint32_t t, unsigned long long* shared) {
  grid.begin_deposits(shared);
  __syncthreads();
  for (SlotIndex i = SlotIndex{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += SlotIndex{gridDim.x} * blockDim.x)
    grid.deposit(list[i], t, shared);
  __syncthreads();
  grid.end_deposits(shared, t);
}

// Each phase's record and sums from its blocks' partial ones: a thread a phase.
template <class Sums>
__global__ void sum_partials(const PhaseRecord* records, const Sums* sums, uint32_t blocks,
                             uint32_t phases, PhaseRecord* record_out, Sums* sums_out) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= phases) return;
  PhaseRecord r{};
  Sums s{};
  for (uint32_t b = 0; b < blocks; ++b) {
    r = r + records[SlotIndex{k} * blocks + b];
    s = s + sums[SlotIndex{k} * blocks + b];
  }
  record_out[k] = r;
  sums_out[k] = s;
}

// The partial sums a launch may keep: a record and the sim's sums of every block for each phase.
inline constexpr size_t kPartialBytes = size_t{64} << 20;

// The most phases a launch of `blocks` blocks keeps partial sums of, at most `asked`.
template <class Sim>
uint32_t phases_within_partials(uint32_t blocks, uint64_t asked) {
  const size_t per_phase = size_t{blocks} * (sizeof(PhaseRecord) + sizeof(ObservedSums<Sim>));
  const uint64_t fit = std::max<uint64_t>(kPartialBytes / per_phase, 1);
  return static_cast<uint32_t>(std::min(fit, asked));
}

}  // namespace sb
