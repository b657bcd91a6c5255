// persistent-cycle (docs/design.md §4, "Several phases in one launch"): one cooperative kernel runs
// many whole phases, for sims whose phases are short (ccp: a phase is one PIC cycle). Each step
// the grid solves the sim's field where the sim does its grid work inside the kernel
// (whole_phases.cuh), meets at a barrier, moves every particle one step from one list of slots
// into the other, the survivors and their children packed by one atomic add a block, each
// deposited for the next step as it is stored, and meets again. The dead are so removed as they
// die, and the counts and the sim's sums of each phase are kept on the device, a partial sum a
// block, summed by a second kernel once the launch ends: the host waits once a launch, not once a
// phase. Where the sim's grid work runs on the host's side of the driver (a field solved by cuFFT,
// or summed over ranks), a launch runs one phase after it.
//
// The barrier is the grid's (cooperative groups' grid sync: a counter in device memory that every
// block polls) or, on devices of compute capability 9.0, the grid is one thread-block cluster and
// the barrier the cluster's, which the SMs keep in hardware (--cycle-barrier cluster): fewer SMs
// for a cheaper barrier, the trade a small population asks about (docs/performance.md, "Small
// populations, many steps").
#include <cooperative_groups.h>

#include <algorithm>

#include "core/grid_shape.hpp"
#include "schedulers/device/cycle_launch.cuh"
#include "schedulers/device/cycle_step.cuh"
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"
#include "sims/device_states.cuh"

namespace sb {
namespace {

const DeclaredParameter& launch_phases() {
  static const DeclaredParameter p = whole_parameter(
      "launch_phases", "--launch-phases",
      "persistent-cycle: the most phases one launch runs (default 1024; fewer where the phases' "
      "partial sums would pass 64 MiB)",
      "phases per launch", 1, uint64_t{1} << 20, 1024);
  return p;
}

const DeclaredParameter& cycle_barrier() {
  static const DeclaredParameter p = choice_parameter(
      "cycle_barrier", "--cycle-barrier",
      "persistent-cycle: the barrier between a step's parts: grid (a persistent grid, "
      "cooperative groups' grid sync) or cluster (the grid is one thread-block cluster, the "
      "cluster's hardware barrier; compute capability 9.0) (default grid)",
      "barrier", {"grid", "cluster"}, "grid");
  return p;
}

const DeclaredParameter& cycle_blocks() {
  static const DeclaredParameter p = [] {
    DeclaredParameter d = whole_parameter(
        "cycle_blocks", "--cycle-blocks",
        "persistent-cycle: the blocks of its grid; fill (default): every block that fits "
        "(--blocks-per-sm on every SM), or with --cycle-barrier cluster the largest cluster",
        "blocks", 1, 1u << 20, std::nullopt);
    d.zero_word = "fill";
    d.fallback = d.zero_word;
    return d;
  }();
  return p;
}

// The kernel's own counters. Step s of a launch stores its particles at length[s % 3], zeroed
// during step s - 1 (whose own count is read after its barrier, and the one before it was read
// before the barrier ahead of that); stop[s % 3] is one thread's reading of the run's stop
// flags during step s, read by every thread after the step's barrier, so that all leave at once.
struct CycleState {
  SlotIndex length[3];
  unsigned int stop[3];
  unsigned int list;  // the list that holds the survivors at the end
  SlotIndex n;        // the survivors
  SlotIndex claimed;  // the most slots a step asked for
};

// The barrier every thread of the launch meets at between a step's parts.
struct GridBarrier {
  __device__ static void sync() { cooperative_groups::this_grid().sync(); }
};
struct ClusterBarrier {  // the launch is one cluster
  __device__ static void sync() {
#if __CUDA_ARCH__ >= 900
    cooperative_groups::this_cluster().sync();
#else
    __trap();  // refused on the host before launch
#endif
  }
};

template <class Sim, class Grid>
struct CycleLaunch {
  DevicePhase<Sim> first;              // the first phase; its particles are list 0
  typename Sim::Particle* lists[2];    // `first.capacity` slots each
  SlotIndex n;                         // particles in list 0
  uint32_t phases, steps;              // phases of `steps` steps each
  CycleState* state;
  PhaseRecord* records;                // [phase][block]
  ObservedSums<Sim>* sums;             // [phase][block]
  Grid grid;
};

// The counts and sums of phase k over the block, written as its partial ones, and emptied for the
// next phase. A block whose threads moved nothing in the phase (`had`) skips the block-wide sum:
// only the leader's thread may hold counts then. Every thread of the block calls it.
template <class Sim, class Grid>
__device__ void close_phase(const CycleLaunch<Sim, Grid>& a, uint32_t k, bool& had,
                            PhaseRecord& mine, ObservedSums<Sim>& sums) {
  const bool any = __syncthreads_or(had) != 0;
  const PhaseRecord block = any ? block_sum(mine) : mine;
  const ObservedSums<Sim> block_sums = any ? block_sum(sums) : sums;
  if (threadIdx.x == 0) {
    a.records[SlotIndex{k} * gridDim.x + blockIdx.x] = block;
    a.sums[SlotIndex{k} * gridDim.x + blockIdx.x] = block_sums;
  }
  mine = {};
  sums = {};
  had = false;
}

// Where the sim does its grid work inside the kernel, each block closes a phase after the solve
// that starts the next, before the barrier that ends that solve: the particles fill the grid's
// first blocks and the solve takes its last ones (whole_phases.cuh), so that where a population
// leaves the last blocks empty, the others' block-wide sums take the time of the solve rather
// than a time of their own.
template <class Sim, class Grid, class Barrier, int kBound>
__global__ void SB_BLOCK_BOUND(kBound) persistent_cycle(CycleLaunch<Sim, Grid> a) {
  constexpr bool kGrid = !std::is_same_v<Grid, NoStepGrid<Sim>>;
  const SlotIndex capacity = a.first.capacity;
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  const SlotIndex first_slot = SlotIndex{blockIdx.x} * blockDim.x + threadIdx.x;
  SlotIndex n = a.n, claimed = a.n;
  uint32_t s = 0;  // steps this launch has taken
  extern __shared__ unsigned long long grid_sums[];
  unsigned long long* shared = a.grid.shared_bytes() > 0 ? grid_sums : nullptr;
  if constexpr (kGrid) {
    deposit_all<Sim>(a.grid, a.lists[0], n, a.first.window.start, shared);
    Barrier::sync();
  }
  PhaseRecord mine{};
  ObservedSums<Sim> sums{};
  bool had = false;  // this thread moved a particle in the phase
  for (uint32_t k = 0; k < a.phases; ++k) {
    DevicePhase<Sim> ph = a.first;
    ph.window = {a.first.window.start + k * a.steps, a.first.window.start + (k + 1) * a.steps};
    for (uint32_t t = ph.window.start; t < ph.window.end; ++t, ++s) {
      if constexpr (kGrid) {
        a.grid.solve(t);
        if (k > 0 && t == ph.window.start) close_phase(a, k - 1, had, mine, sums);
        Barrier::sync();
      }
      if (leader && t == ph.window.start) mine.start = mine.most_slots = n;
      SlotIndex& length = a.state->length[s % 3];
      if (leader) {
        a.state->length[(s + 1) % 3] = 0;
        a.state->stop[s % 3] = stop_requested(ph);
      }
      had = had || first_slot < n;
      move_step(ph, a.grid, a.lists[s & 1], a.lists[(s + 1) & 1], n, length, t,
                t + 1 == ph.window.end, shared, mine, sums);
      if constexpr (kGrid) {
        __syncthreads();
        a.grid.end_deposits(shared, t + 1);
      }
      Barrier::sync();
      const SlotIndex asked = *static_cast<volatile SlotIndex*>(&length);
      claimed = std::max(claimed, asked);
      n = std::min(asked, capacity);
      if (leader) mine.most_slots = std::max<unsigned long long>(mine.most_slots, n);
      if (*static_cast<volatile unsigned int*>(&a.state->stop[s % 3]) != 0) {
        if (leader) a.state->claimed = claimed;
        return;
      }
    }
    if constexpr (!kGrid) close_phase(a, k, had, mine, sums);
  }
  if constexpr (kGrid) {
    if (a.phases > 0) close_phase(a, a.phases - 1, had, mine, sums);
  }
  if (leader) {
    a.state->list = s & 1;
    a.state->n = n;
    a.state->claimed = claimed;
  }
}

// The kernel for the configured block and barrier with `shared_bytes` of the grid work's shared
// memory, its grid, and its launch. Its particle and its child take more registers than a block
// of 1024 leaves for every sim, so every sim gets the bounded instantiation for the largest
// blocks.
template <class Sim, class Grid>
class CycleKernel {
 public:
  using Kernel = void (*)(CycleLaunch<Sim, Grid>);

  CycleKernel(const DeviceSetup& s, size_t shared_bytes)
      : s_(s), cluster_(cycle_barrier().text(s.config) == "cluster"), shared_bytes_(shared_bytes) {
    const uint64_t asked = cycle_blocks().whole(s.config);
    if (!cluster_) {
      kernel_ = kernel_for_block(persistent_cycle<Sim, Grid, GridBarrier, kAnyBlock>,
                                 persistent_cycle<Sim, Grid, GridBarrier, kLargestBlock>, s,
                                 shared_bytes);
      const uint32_t most = persistent_grid(kernel_, s, shared_bytes);
      grid_ = asked == 0 ? most : static_cast<uint32_t>(asked);
      if (asked > most) {
        throw UsageError(fmt::format(
            "--cycle-blocks: {} is more than the {} blocks of {} threads that are resident at "
            "once for persistent-cycle (--blocks-per-sm {}); accepted: fill or 1 to {}",
            asked, most, s.knobs.block_size, most / s.device.sm_count, most));
      }
      return;
    }
    if (s.device.compute_major < 9) {
      throw UsageError(fmt::format(
          "--cycle-barrier cluster: the device's compute capability is {}.{}; accepted there: "
          "grid (clusters need 9.0)",
          s.device.compute_major, s.device.compute_minor));
    }
    kernel_ = kernel_for_block(persistent_cycle<Sim, Grid, ClusterBarrier, kAnyBlock>,
                               persistent_cycle<Sim, Grid, ClusterBarrier, kLargestBlock>, s,
                               shared_bytes);
    SB_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel_),
                                       cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t config =
        launch_config(s.knobs.block_size, static_cast<uint32_t>(s.device.sm_count), nullptr);
    int most = 0;
    SB_CUDA_CHECK(cudaOccupancyMaxPotentialClusterSize(&most, kernel_, &config));
    if (most < 1 || asked > static_cast<uint64_t>(most)) {
      throw UsageError(fmt::format(
          "--cycle-blocks: {} blocks of {} threads are more than one cluster of persistent-cycle "
          "holds on this device; accepted with --cycle-barrier cluster: fill or 1 to {}",
          asked == 0 ? "fill's" : std::to_string(asked), s.knobs.block_size, most));
    }
    grid_ = asked == 0 ? static_cast<uint32_t>(most) : static_cast<uint32_t>(asked);
  }

  uint32_t grid() const { return grid_; }

  // The launch of `phases` phases of `steps` steps from `first`'s n particles, on the run's
  // stream.
  void run(const CycleBuffers<Sim, CycleState>& b, const DevicePhase<Sim>& first, SlotIndex n,
           uint32_t phases, uint32_t steps, const Grid& grid) const {
    const CycleLaunch<Sim, Grid> a{first,   {b.lists[0], b.lists[1]}, n, phases, steps,
                                   b.state, b.records, b.sums, grid};
    const uint32_t block = s_.knobs.block_size;
    if (!cluster_) {
      launch_cooperative(kernel_, grid_, block, shared_bytes_, s_.stream, a);
      return;
    }
    cudaLaunchAttribute attribute[1];
    cudaLaunchConfig_t config = launch_config(block, grid_, attribute);
    config.stream = s_.stream;
    SB_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel_, a));
  }

 private:
  // A launch of `blocks` blocks in one cluster, where `attribute` (one) is given to hold its
  // shape.
  cudaLaunchConfig_t launch_config(uint32_t block, uint32_t blocks,
                                   cudaLaunchAttribute* attribute) const {
    cudaLaunchConfig_t c{};
    c.gridDim = dim3(blocks);
    c.blockDim = dim3(block);
    c.dynamicSmemBytes = shared_bytes_;
    if (attribute != nullptr) {
      attribute[0].id = cudaLaunchAttributeClusterDimension;
      attribute[0].val.clusterDim.x = blocks;
      attribute[0].val.clusterDim.y = 1;
      attribute[0].val.clusterDim.z = 1;
      c.attrs = attribute;
      c.numAttrs = 1;
    }
    return c;
  }

  const DeviceSetup& s_;
  bool cluster_;
  size_t shared_bytes_;
  Kernel kernel_ = nullptr;
  uint32_t grid_ = 0;
};

template <class Sim>
class PersistentCycle : public WholeCycles<Sim, CycleState, CycleKernel> {
 public:
  explicit PersistentCycle(const DeviceSetup& s)
      : WholeCycles<Sim, CycleState, CycleKernel>(s, "persistent-cycle",
                                                  launch_phases().whole(s.config)) {}
};

}  // namespace

SchedulerEntry persistent_cycle_entry() {
  return {"persistent-cycle",
          "one cooperative kernel runs many whole phases: the field (where the sim's grid work "
          "runs inside it), every step, and the removal of the dead, with grid barriers",
          SchedulerKind::kGpu,
          launch_knobs::grid_shape(),
          device_runners<PersistentCycle>(),
          {},
          {&launch_phases(), &cycle_barrier(), &cycle_blocks()}};
}

}  // namespace sb
