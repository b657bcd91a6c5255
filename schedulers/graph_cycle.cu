// graph-cycle (docs/design.md §4, "Several phases in one launch"): a step's launches captured
// once in a CUDA graph and replayed, for sims whose phases are short. A step is persistent-cycle's
// step with kernel boundaries where it has grid barriers: a kernel solves the sim's field (where
// the sim does its grid work inside the kernels, whole_phases.cuh), and a kernel moves every
// particle one step from one list of slots into the other, the survivors and their children
// packed by one atomic add a block and deposited for the next step as they are stored. The graph
// holds --graph-steps such steps; every kernel reads its step and the particles it moves from
// counters on the device, so that one graph, captured once a launch of many phases, is replayed
// without the host reading anything until the launch ends. The counts and the sim's sums of each
// phase are kept a partial sum a block, as persistent-cycle keeps them.
#include <algorithm>

#include "core/grid_shape.hpp"
#include "schedulers/device/cycle_launch.cuh"
#include "schedulers/device/cycle_step.cuh"
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/entries.hpp"
#include "sims/device_states.cuh"

namespace sb {
namespace {

const DeclaredParameter& graph_steps() {
  static const DeclaredParameter p = whole_parameter(
      "graph_steps", "--graph-steps",
      "graph-cycle: the steps its CUDA graph holds, replayed until a launch's steps are taken "
      "(default 32)",
      "steps", 1, 4096, 32);
  return p;
}

// The counters the kernels of a launch share. Step s claims its slots at length[s % 3], which
// step s - 1 zeroed (the first two are zeroed as the launch starts), and reads its particles'
// count at length[(s - 1) % 3]. The first step that finds the run's stop flags set writes
// `halt`, which the kernels of every later step read before they start, so that all of them
// return, and the step's own kernel, which may read it too, does not.
struct GraphState {
  SlotIndex length[3];
  uint32_t halt;      // 1 + the first step that found the run stopped, or 0
  uint32_t base;      // steps taken by the graph's earlier replays
  uint32_t list;      // the list that holds the survivors at the end
  SlotIndex n;        // the survivors
  SlotIndex claimed;  // the most slots a step asked for
};

template <class Sim, class Grid>
struct GraphLaunch {
  DevicePhase<Sim> first;            // the first phase; its particles are list 0
  typename Sim::Particle* lists[2];  // `first.capacity` slots each
  SlotIndex n;                       // particles in list 0
  uint32_t steps, total;             // steps a phase, and the launch's
  GraphState* state;
  PhaseRecord* records;   // [phase][block]
  ObservedSums<Sim>* sums;  // [phase][block]
  Grid grid;
};

// Step s of the launch for the graph's node `offset`, or the launch's total where it has none:
// the replay passed the launch's steps, or the step before stopped the run.
template <class Sim, class Grid>
__device__ uint32_t step_of(const GraphLaunch<Sim, Grid>& a, uint32_t offset) {
  const uint32_t s = a.state->base + offset, halt = a.state->halt;
  if (s >= a.total || (halt != 0 && halt <= s)) return a.total;
  return s;
}

template <class Sim, class Grid>
__global__ void deposit_first(GraphLaunch<Sim, Grid> a) {
  extern __shared__ unsigned long long grid_sums[];
  unsigned long long* shared = a.grid.shared_bytes() > 0 ? grid_sums : nullptr;
  deposit_all<Sim>(a.grid, a.lists[0], a.n, a.first.window.start, shared);
}

template <class Sim, class Grid, int kBound>
__global__ void SB_BLOCK_BOUND(kBound) solve_step(GraphLaunch<Sim, Grid> a, uint32_t offset) {
  const uint32_t s = step_of(a, offset);
  if (s < a.total) a.grid.solve(a.first.window.start + s);
}

template <class Sim, class Grid, int kBound>
__global__ void SB_BLOCK_BOUND(kBound) move(GraphLaunch<Sim, Grid> a, uint32_t offset) {
  const uint32_t s = step_of(a, offset);
  if (s == a.total) return;
  GraphState& g = *a.state;
  const uint32_t k = s / a.steps, t = a.first.window.start + s;
  DevicePhase<Sim> ph = a.first;
  ph.window = {a.first.window.start + k * a.steps, a.first.window.start + (k + 1) * a.steps};
  const SlotIndex asked = s == 0 ? a.n : g.length[(s - 1) % 3];
  const SlotIndex n = std::min(asked, ph.capacity);
  PhaseRecord* of_block = a.records + SlotIndex{k} * gridDim.x;
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  if (leader) {
    g.claimed = std::max(g.claimed, asked);
    g.length[(s + 1) % 3] = 0;
    if (g.halt == 0 && stop_requested(ph)) g.halt = s + 1;
    // The count that ended step s - 1 is its phase's; the one that starts a phase, its start.
    if (s > 0) {
      PhaseRecord& before = a.records[SlotIndex{(s - 1) / a.steps} * gridDim.x];
      before.most_slots = std::max<unsigned long long>(before.most_slots, n);
    }
    if (s % a.steps == 0) {
      of_block->start = n;
      of_block->most_slots = std::max<unsigned long long>(of_block->most_slots, n);
    }
  }
  extern __shared__ unsigned long long grid_sums[];
  unsigned long long* shared = a.grid.shared_bytes() > 0 ? grid_sums : nullptr;
  a.grid.begin_deposits(shared);
  __syncthreads();
  const bool last = (s + 1) % a.steps == 0;
  PhaseRecord mine{};
  ObservedSums<Sim> sums{};
  move_step(ph, a.grid, a.lists[s & 1], a.lists[(s + 1) & 1], n, g.length[s % 3], t, last,
            shared, mine, sums);
  __syncthreads();
  a.grid.end_deposits(shared, t + 1);
  const PhaseRecord block = block_sum(mine);
  if (threadIdx.x == 0) of_block[blockIdx.x] = of_block[blockIdx.x] + block;
  if (last) {
    const ObservedSums<Sim> block_sums = block_sum(sums);
    if (threadIdx.x == 0) a.sums[SlotIndex{k} * gridDim.x + blockIdx.x] = block_sums;
  }
}

// The end of the graph: its next replay's steps follow this one's.
__global__ void advance(GraphState* g, uint32_t steps) { g->base += steps; }

// The end of the launch, one thread: the survivors of its last step taken, and where they are.
template <class Sim, class Grid>
__global__ void finish(GraphLaunch<Sim, Grid> a, uint32_t blocks) {
  GraphState& g = *a.state;
  const uint32_t s = a.total;  // the steps taken, where none stopped the run
  const SlotIndex asked = g.length[(s - 1) % 3];
  const SlotIndex n = std::min(asked, a.first.capacity);
  g.claimed = std::max(g.claimed, asked);
  PhaseRecord& last = a.records[SlotIndex{(s - 1) / a.steps} * blocks];
  last.most_slots = std::max<unsigned long long>(last.most_slots, n);
  g.list = s & 1;
  g.n = n;
}

// A graph of the configured steps for one Grid type: its kernels for the configured block, its
// grid (every block that is resident at once: --blocks-per-sm on every SM), and the executable
// graph, updated to each launch's values as the launch is captured.
template <class Sim, class Grid>
class CycleGraph {
 public:
  using Launch = GraphLaunch<Sim, Grid>;

  CycleGraph(const DeviceSetup& s, size_t shared_bytes)
      : s_(s), shared_bytes_(shared_bytes), steps_(static_cast<uint32_t>(graph_steps().whole(s.config))) {
    move_ = kernel_for_block(move<Sim, Grid, kAnyBlock>, move<Sim, Grid, kLargestBlock>, s,
                             shared_bytes);
    solve_ = kernel_for_block(solve_step<Sim, Grid, kAnyBlock>,
                              solve_step<Sim, Grid, kLargestBlock>, s);
    grid_ = persistent_grid(move_, s, shared_bytes);
    SB_CUDA_CHECK(cudaStreamCreateWithFlags(&capture_, cudaStreamNonBlocking));
  }
  ~CycleGraph() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    cudaStreamDestroy(capture_);
  }
  CycleGraph(const CycleGraph&) = delete;
  CycleGraph& operator=(const CycleGraph&) = delete;

  uint32_t grid() const { return grid_; }

  // The launch of `phases` phases of `steps` steps from `first`'s n particles, on the run's
  // stream: its first deposit, the graph replayed until its steps are taken, and its end.
  void run(const CycleBuffers<Sim, GraphState>& b, const DevicePhase<Sim>& first, SlotIndex n,
           uint32_t phases, uint32_t steps, const Grid& grid) {
    const cudaStream_t stream = s_.stream;
    const uint32_t block = s_.knobs.block_size;
    const Launch a{first,   {b.lists[0], b.lists[1]}, n,      steps, phases * steps,
                   b.state, b.records,                b.sums, grid};
    // move() adds each step's counts to its phase's.
    SB_CUDA_CHECK(cudaMemsetAsync(b.records, 0, size_t{phases} * grid_ * sizeof(PhaseRecord),
                                  stream));
    if constexpr (!std::is_same_v<Grid, NoStepGrid<Sim>>) {
      deposit_first<<<grid_, block, shared_bytes_, stream>>>(a);
      SB_CUDA_CHECK(cudaGetLastError());
    }
    const uint32_t chunk = std::min(steps_, a.total);
    capture(a, chunk);
    for (uint32_t done = 0; done < a.total; done += chunk)
      SB_CUDA_CHECK(cudaGraphLaunch(exec_, stream));
    finish<<<1, 1, 0, stream>>>(a, grid_);
    SB_CUDA_CHECK(cudaGetLastError());
  }

 private:
  // The graph of `chunk` steps with this launch's values: kernels on the capture stream,
  // recorded rather than run; the executable graph made once and updated after, or made anew
  // where the chunk changed (a launch shorter than --graph-steps).
  void capture(const Launch& a, uint32_t chunk) {
    const uint32_t block = s_.knobs.block_size;
    SB_CUDA_CHECK(cudaStreamBeginCapture(capture_, cudaStreamCaptureModeThreadLocal));
    for (uint32_t i = 0; i < chunk; ++i) {
      if constexpr (!std::is_same_v<Grid, NoStepGrid<Sim>>) {
        solve_<<<grid_, block, 0, capture_>>>(a, i);
      }
      move_<<<grid_, block, shared_bytes_, capture_>>>(a, i);
    }
    advance<<<1, 1, 0, capture_>>>(a.state, chunk);
    const cudaError_t launched = cudaGetLastError();
    cudaGraph_t graph = nullptr;
    SB_CUDA_CHECK(cudaStreamEndCapture(capture_, &graph));
    SB_CUDA_CHECK(launched);
    if (exec_ != nullptr) {
      cudaGraphExecUpdateResultInfo info{};
      if (cudaGraphExecUpdate(exec_, graph, &info) != cudaSuccess) {
        (void)cudaGetLastError();  // the topology changed: instantiated anew below
        SB_CUDA_CHECK(cudaGraphExecDestroy(exec_));
        exec_ = nullptr;
      }
    }
    if (exec_ == nullptr) SB_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, 0));
    SB_CUDA_CHECK(cudaGraphDestroy(graph));
  }

  using Kernel = void (*)(Launch, uint32_t);
  const DeviceSetup& s_;
  size_t shared_bytes_;
  uint32_t steps_;
  Kernel move_ = nullptr, solve_ = nullptr;
  uint32_t grid_ = 0;
  cudaStream_t capture_{};
  cudaGraphExec_t exec_ = nullptr;
};

// A launch runs as many phases as their partial sums allow.
template <class Sim>
class GraphCycle : public WholeCycles<Sim, GraphState, CycleGraph> {
 public:
  explicit GraphCycle(const DeviceSetup& s)
      : WholeCycles<Sim, GraphState, CycleGraph>(s, "graph-cycle", uint64_t{1} << 32) {}
};

}  // namespace

SchedulerEntry graph_cycle_entry() {
  return {"graph-cycle",
          "a CUDA graph of many steps, captured once a launch and replayed: a kernel solves the "
          "field (where the sim's grid work runs inside it) and one moves every particle a step "
          "and removes the dead, the counts kept on the device",
          SchedulerKind::kGpu,
          launch_knobs::grid_shape(),
          device_runners<GraphCycle>(),
          {},
          {&graph_steps()}};
}

}  // namespace sb
