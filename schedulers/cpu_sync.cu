// cpu-sync (seed 003 §3.1.4 "CPU Sync Full", §3.3.2): a launch per generation. Each thread runs
// one particle to the end of the phase; the host then reads the count and launches over the
// particles spawned meanwhile, until a generation spawns none.
//
// Ours adds what the seed found for its Dynamic scheduler (§3.4.4), which its authors expected
// to help CPU Sync too (§3.4): a warp runs its particles in iterations of a few steps with a
// pool of children in shared memory, a lane whose particle died taking a child from there
// (schedulers/device/pool_agent.cuh). A thread's particle is thus followed by children of its
// warp instead of idling until the warp's longest particle ends; where particles live a few
// dozen steps of exponential length (pic), that idling was three quarters of the lanes. When
// fewer than Policy::kMinLanes lanes (half, by default) are left with work, in a generation large
// enough to fill the GPU, the warp leaves them to the next generation, where they run with others
// (as long as it has slots to spare: run_pooled_family). Children that do not fit in the pool, or
// that are left when the warp's lanes reach the end of the phase, go to the next generation too,
// stored without a release: nothing reads them before the next launch. A pooled particle that ends
// the phase alive takes the slot of one of the warp's generation particles that died, where the
// warp has one (it keeps up to 64 for the launch, 520 bytes of shared memory per warp beside its
// pool: slot_recycler.cuh), and a new slot, in the next generation (which finds it ended), only
// otherwise. Where the sim's particles never die (mvp, toy), no lane frees up before the phase end,
// so each thread runs its particle to the end as the seed's did, storing each child in a slot of
// its own (run_family).
//
// Each generation after the first is sorted by step with CUB's radix sort, earliest first. The
// lanes of a warp then run equally long, and the longest particles start first, so the
// generation's last blocks are short ones. (The seed launched children in the order they were
// spawned, where a warp's particles need very different numbers of steps.)
//
// A generation lasts as long as its longest particle, however few it holds. Where particles never
// die, the generations at the end of a phase hold few particles, born late but some still with most
// of the phase to go: on mvp §5.2.1 the last eight (390,000 of 7.4 million particles) took a
// disproportionate share of the phase's time (docs/performance.md, "cpu-sync's last generations").
// So once the generations die out (CpuSync::dying_out), that generation and its descendants run in
// one persistent launch (cpu_sync_tail), a child as soon as it is born. That launch stops handing
// out slots after the policy's waves of resident threads, leaving the rest to generations again:
// where the generations grow back (toy's first ones shrink, then grow to 13 million), a tail
// without that end ran them all, and toy-block-size's workload at blocks of 1024 took several times
// as long.
//
// The constants it was tuned with are a policy type (CpuSyncPolicy; docs/design.md "Tuning
// policies"), chosen at run time with --policy.
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>
#include <cub/device/device_radix_sort.cuh>

#include "core/grid_shape.hpp"
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/host_counter.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/pool_dispatch.cuh"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

template <unsigned int kPoolSize, uint32_t kSteps, unsigned int kLanes, unsigned int kTail>
struct CpuSyncPolicy : PoolPolicy<kPoolSize, kSteps, ReuseDeadSlots<>> {
  static constexpr unsigned int kMinLanes = kLanes;  // run_pooled_family
  // The most particles, in waves of the threads that fit on the GPU, that one tail runs: a
  // generation that fits, once the generations die out, and as many of its descendants as fit
  // beside it (CpuSync::dying_out); 0: no tail. 2: on mvp §5.2.1 the last eight generations, as
  // fast at every block size as 4; 8 takes the generation before too, and is no faster
  // (docs/performance.md, "What each scheduler costs and why", has the times).
  static constexpr unsigned int kTailWaves = kTail;

  static std::vector<PolicyConstant> constants() {
    return {{"pool", kPoolSize},
            {"steps_per_iteration", kSteps},
            {"min_lanes", kLanes},
            {"recycled_slots", ReuseDeadSlots<>::kKept},
            {"tail_waves", kTail}};
  }
};

struct CpuSyncSm90 : CpuSyncPolicy<32, 8, 16, 2> {
  static constexpr const char* kName = kSm90Policy;
  static constexpr const char* kDescription = kSm90What;
};
struct CpuSyncSteps16 : CpuSyncPolicy<32, 16, 16, 2> {
  static constexpr const char* kName = kSteps16Policy;
  static constexpr const char* kDescription = kSteps16What;
};
struct CpuSyncPool64 : CpuSyncPolicy<64, 8, 16, 2> {
  static constexpr const char* kName = "pool-64";
  static constexpr const char* kDescription =
      "64 children per warp's pool: fewer left to the next generation, twice the shared memory";
};
struct CpuSyncNoTail : CpuSyncPolicy<32, 8, 16, 0> {
  static constexpr const char* kName = "no-tail";
  static constexpr const char* kDescription =
      "a launch for every generation, also those that die out (sm90: where particles never die, "
      "up to two waves of resident threads of them in one persistent launch)";
};
using CpuSyncPolicies = PolicyList<CpuSyncSm90, CpuSyncSteps16, CpuSyncPool64, CpuSyncNoTail>;

const SchedulerPolicies& cpu_sync_policies() {
  static const SchedulerPolicies p = policies_of<CpuSyncPolicies>({{90, CpuSyncSm90::kName}});
  return p;
}

// Runs in[k] and the children of its warp (run_family), in[k] ending in slot first + k.
template <class Sim, class Policy, int kBound>
__global__ void SB_BLOCK_BOUND(kBound)
    cpu_sync_generation(DevicePhase<Sim> ph, const typename Sim::Particle* in, SlotIndex first,
                        SlotIndex count, bool may_hand_on) {
  using Particle = typename Sim::Particle;
  extern __shared__ unsigned char shared[];
  WarpPool<Particle, Policy>& pool = empty_pool<Particle, Policy>(shared);
  const SlotIndex k = grid_thread_index();
  Particle p;
  Particle* own = nullptr;
  if (k < count) {
    p = in[k];
    own = ph.particles + first + k;
  }
  SlotTally tally;
  run_family<Store>(ph, pool, p, own, may_hand_on, tally);
  tally.flush(ph);
}

// How long a thread of cpu_sync_tail sleeps between polls at most. Every waiting thread also reads
// the counters that all_done compares, all in one 32-byte sector, which the spawns' slot claims add
// to: mvp §5.2.1's last seven generations ran in this kernel far faster with 8-64 µs than with
// back_off's usual 1 µs (docs/performance.md, "cpu-sync's last generations").
inline constexpr unsigned int kTailBackOffNs = 32768;

// The generation in slots [first, n), sorted, and its descendants up to slot `end`
// (CpuSync::dying_out), each thread taking the next slot as dynamic-thread's do. The counters
// `done` and `next` must be 0.
template <class Sim, int kBound>
__global__ void SB_BLOCK_BOUND(kBound)
    cpu_sync_tail(DevicePhase<Sim> ph, SlotIndex first, SlotIndex end) {
  // The slots before `first` hold particles of generations that ended.
  if (grid_thread_index() == 0) release_add_to_counter(ph.counters->done, first);
  run_published_slots(ph, first, end, kTailBackOffNs);
}

struct NextStep {
  template <class Particle>
  __device__ uint32_t operator()(const Particle& p) const {
    return p.tag.step;
  }
};

template <class Sim>
class CpuSync {
 public:
  using Particle = typename Sim::Particle;
  using Kernel = void (*)(DevicePhase<Sim>, const Particle*, SlotIndex, SlotIndex, bool);
  using TailKernel = void (*)(DevicePhase<Sim>, SlotIndex, SlotIndex);

  // A block size that not even the kernel's instantiation for the largest blocks runs at (too
  // much shared memory for its pools) is a run error here rather than a failed launch.
  explicit CpuSync(const DeviceSetup& s)
      : s_(s),
        k_(pool_kernel<CpuSyncPolicies, Sim, Kernel>(
            cpu_sync_policies(), s,
            [](auto* policy, auto largest) {
              return cpu_sync_generation < Sim, std::remove_pointer_t<decltype(policy)>,
                     decltype(largest)::value ? kLargestBlockBound<Sim> : kAnyBlock > ;
            })),
        resident_(blocks_that_fit(k_.kernel, s, k_.shared_bytes) * s.knobs.block_size *
                  static_cast<uint32_t>(s.device.sm_count)) {
    if constexpr (!kParticlesDie<Sim>) {
      CpuSyncPolicies::with(cpu_sync_policies().resolve(s.config, s.device), [&](auto* policy) {
        tail_waves_ = std::remove_pointer_t<decltype(policy)>::kTailWaves;
      });
      // Only a policy with a tail pays for sizing its grid.
      if (tail_waves_ > 0) {
        tail_ = kernel_for_block(cpu_sync_tail<Sim, kAnyBlock>,
                                 cpu_sync_tail<Sim, kLargestBlockBound<Sim>>, s);
        tail_grid_ = persistent_grid(tail_, s);
      }
    }
  }

  // Runs the generations in slots [last, n) until one spawns none: each a launch, or, once they
  // die out, a tail, after which the slots it did not reach are the next generation.
  void run_phase(const DevicePhase<Sim>& ph, SlotIndex n) {
    SlotIndex last = 0, previous = 0;
    bool filled = false;  // a generation so far held more than the tail takes
    for (bool first_generation = true; n != last; first_generation = false) {
      const SlotIndex count = n - last;
      const Particle* in = first_generation ? ph.particles : earliest_first(ph, last, count);
      if (!first_generation && dying_out(count, previous, filled)) {
        last = run_tail(ph, in, last, count);
      } else {
        // A generation too small to fill the GPU gains nothing from leaving lanes to the next.
        launch(s_, k_.kernel, blocks_for(count, s_.knobs.block_size), k_.shared_bytes, ph, in,
               last, count, count >= resident_);
        filled = filled || count > tail_threads();
        last = n;
      }
      previous = count;
      n = counter_.read_n(s_, ph.counters, ph.capacity);
      last = std::min(last, n);  // a tail that ran every slot
    }
  }

 private:
  // The most particles that a tail runs: the policy's waves of resident threads.
  SlotIndex tail_threads() const { return static_cast<SlotIndex>(tail_waves_) * resident_; }

  // Runs the generation of `count` in slots from `first`, sorted into `in`, and its descendants in
  // one launch, up to tail_threads() slots; returns the slot where it stopped.
  SlotIndex run_tail(const DevicePhase<Sim>& ph, const Particle* in, SlotIndex first,
                     SlotIndex count) {
    // The tail's threads take the generation from its slots, in the sorted order.
    SB_CUDA_CHECK(cudaMemcpyAsync(ph.particles + first, in, count * sizeof(Particle),
                                  cudaMemcpyDeviceToDevice, s_.stream));
    // An earlier tail of the phase left its counts there.
    SB_CUDA_CHECK(cudaMemsetAsync(&ph.counters->done, 0, sizeof(SlotIndex), s_.stream));
    SB_CUDA_CHECK(cudaMemsetAsync(&ph.counters->next, 0, sizeof(SlotIndex), s_.stream));
    const SlotIndex end = std::min(first + tail_threads(), ph.capacity);
    launch(s_, tail_, tail_grid_, 0, ph, first, end);
    return end;
  }

  // Whether a generation of `count` after one of `previous` runs with its descendants in a tail:
  // a generation before held more than the tail takes (`filled`), and this one fits in the tail
  // and is smaller than the last. The generations then die out, mostly: toy's first ones are
  // small and shrink too, then grow to 13 million, which the tail's end leaves to generations.
  bool dying_out(SlotIndex count, SlotIndex previous, bool filled) const {
    return tail_ != nullptr && filled && count < previous && count <= tail_threads();
  }

  // The particles in slots [first, first + count), sorted by next step into scratch memory: their
  // indices sorted (stable, so the order is the particles' own), then the particles gathered; a
  // sort that carried the particles themselves would need more shared memory than CUB's kernels
  // have for large ones (air's with space charge).
  const Particle* earliest_first(const DevicePhase<Sim>& ph, SlotIndex first, SlotIndex count) {
    keys_.reserve(2 * count);
    order_.reserve(2 * count);
    sorted_.reserve(count);
    const auto policy = thrust::cuda::par.on(s_.stream);
    const Particle* from = ph.particles + first;
    thrust::transform(policy, from, from + count, keys_.data(), NextStep{});
    thrust::sequence(policy, order_.data(), order_.data() + count);
    const int end_bit = 32 - __builtin_clz(ph.window.end | 1u);
    size_t bytes = 0;
    SB_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, bytes, keys_.data(), keys_.data() + count, order_.data(), order_.data() + count,
        count, 0, end_bit, s_.stream));
    temp_.reserve(bytes);
    SB_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        temp_.data(), bytes, keys_.data(), keys_.data() + count, order_.data(),
        order_.data() + count, count, 0, end_bit, s_.stream));
    thrust::gather(policy, order_.data() + count, order_.data() + 2 * count, from, sorted_.data());
    return sorted_.data();
  }

  const DeviceSetup& s_;
  PoolKernel<Kernel> k_;
  uint32_t resident_;          // threads of the kernel resident on the GPU at once
  TailKernel tail_ = nullptr;  // only where the sim's particles never die, and the policy has one
  uint32_t tail_grid_ = 0;
  unsigned int tail_waves_ = 0;
  HostCounter counter_;
  DeviceBuffer<uint32_t> keys_{"cpu-sync's sort keys"};    // keys in, then keys out
  DeviceBuffer<uint32_t> order_{"cpu-sync's sort order"};  // indices in, then sorted
  DeviceBuffer<Particle> sorted_{"cpu-sync's sorted generation"};
  DeviceBuffer<unsigned char> temp_{"cpu-sync's CUB sort scratch"};
};

}  // namespace

SchedulerEntry cpu_sync_entry() {
  return {
      "cpu-sync",
      "a launch per generation, each thread one particle to the end followed (where particles "
      "die) by children from its warp's shared-memory pool, the host reads the count between "
      "generations; generations sorted by step (seed §3.1.4, §3.3.2); where particles never die, "
      "the last ones, once they die out, in one persistent launch",
      SchedulerKind::kGpu,
      {&launch_knobs::block_size()},
      device_runners<CpuSync>(),
      cpu_sync_policies()};
}

}  // namespace sb
