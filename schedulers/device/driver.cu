// The GPU driver of schedulers/device/driver.cuh, compiled here once for every registered sim
// (sims/registry.hpp) rather than in every scheduler's file.

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform_reduce.h>

#include <map>
#include <optional>
#include <string>

#include "core/cuda_check.hpp"
#include "core/digest.hpp"
#include "core/errors.hpp"
#include "ranks/communicator.hpp"
#include "ranks/device_communicator.hpp"
#include "ranks/rebalance.hpp"
#include "ranks/traffic.hpp"
#include "schedulers/device/batches.cuh"
#include "schedulers/device/compaction.cuh"
#include "schedulers/device/driver.cuh"
#include "schedulers/device/phase.cuh"
#include "schedulers/device/phase_reductions.cuh"
#include "schedulers/device/sim_device_state.cuh"
#include "schedulers/host_driver.hpp"
#include "sims/device_states.cuh"
#include "sims/registry.hpp"

namespace sb {

// The block size of the driver's own compaction kernels (seed §3.4.2: 128 was best for them).
inline constexpr uint32_t kCompactionBlock = 128;

namespace {

// Where a run has several ranks, each takes a GPU of its node (docs/design.md §10): the one of its
// local rank, or the one it sees where the launcher gave each rank its own
// (CUDA_VISIBLE_DEVICES).
void use_rank_device(ranks::Communicator& comm) {
  if (comm.size() == 1) return;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  if (count == 1) return;
  if (comm.local_size() > count) {
    throw UsageError(fmt::format(
        "{} ranks on this node but {} GPUs; accepted: at most one rank per GPU (mpirun -n {} on "
        "one node, --npernode {} on several)",
        comm.local_size(), count, count, count));
  }
  SB_CUDA_CHECK(cudaSetDevice(comm.local_rank()));
}

// The rank's n particles after `plan`, moved GPU to GPU (docs/design.md §10). Those it sends lie
// before and after those it keeps, consecutive by destination (ranks/rebalance.hpp); those that
// arrive fill the slots the sent ones leave, front first, then the slots after n, and the
// compaction closes what stays empty. Returns the new count.
template <class Particle>
SlotIndex rebalance_on_device(Particle* particles, SlotIndex n, const ranks::RebalancePlan& plan,
                              ranks::Communicator& comm, Compactor<Particle>& compactor,
                              cudaStream_t stream) {
  const int me = comm.rank();
  const std::vector<uint64_t>& send = plan.moves[me];
  std::vector<uint64_t> receive(comm.size(), 0);
  uint64_t kept_from = 0, arriving = 0;
  for (int k = 0; k < comm.size(); ++k) {
    if (k != me) receive[k] = plan.moves[k][me];
    arriving += receive[k];
    if (k < me) kept_from += send[k];
  }
  const uint64_t kept_to = kept_from + send[me];
  DeviceBuffer<Particle> arrived(arriving, "the particles a rebalance brings");
  ranks::device_world().exchange(particles, send, arrived.data(), receive, sizeof(Particle),
                                 stream);
  const uint64_t front = std::min<uint64_t>(arriving, kept_from);
  const uint64_t back = std::min<uint64_t>(arriving - front, n - kept_to);
  const uint64_t after = arriving - front - back;
  const auto place = [&](uint64_t from, uint64_t count, uint64_t to) {
    if (count == 0) return;
    SB_CUDA_CHECK(cudaMemcpyAsync(particles + to, arrived.data() + from, count * sizeof(Particle),
                                  cudaMemcpyDeviceToDevice, stream));
  };
  place(0, front, 0);
  place(front, back, kept_to);
  place(front + back, after, n);
  const auto empty = [&](uint64_t from, uint64_t to) {
    if (from >= to) return;
    compaction::clear_status<Particle>
        <<<blocks_for(to - from, kCompactionBlock), kCompactionBlock, 0, stream>>>(particles, from,
                                                                                   to);
    SB_CUDA_CHECK(cudaGetLastError());
  };
  empty(front, kept_from);
  empty(kept_to + back, n);
  return compactor.compact(n + after);
}

// A run whose particles stay in pinned host memory and stream through the device each phase
// (batches.cuh). Each rank streams its own share; the ranks do not rebalance, since their
// particles are in host memory (docs/design.md §11).
template <class Sim>
RunResult run_streamed(const RunSpec& spec, const RunOptions& opt, MakeDeviceScheduler<Sim> make,
                       HostState<Sim>& host_state, const LaunchKnobs& knobs,
                       const DeviceDescription& device,
                       const DeviceMemory& memory, uint64_t arrays) {
  using Particle = typename Sim::Particle;
  const RunConfig& c = spec.config;
  ranks::Communicator& comm = ranks::world();
  const PhasePlan& plan = spec.plan();
  const HostMemoryLimit host = host_memory_limit();
  require_memory("host", fmt::format("--capacity {} kept in pinned host memory", c.capacity),
                 c.capacity, sizeof(Particle), host.bytes, host.why);
  const uint64_t slots = batch_slots(c, knobs, sizeof(Particle), arrays, memory.free_bytes);
  require_memory("device",
                 fmt::format("two batches of {} slots{}", slots,
                             arrays == 1 ? "" : " with --compaction " + knobs.compaction),
                 2 * arrays * std::max<uint64_t>(slots, 1), sizeof(Particle), memory.free_bytes,
                 memory.describe());

  CudaStream stream;
  Watchdog watchdog(describe(c, knobs, plan.count, plan.steps), knobs.timeout_s);
  const DeviceSetup setup{c, knobs, device, stream, watchdog};
  DeviceMemoryUse::reset_peak();
  const size_t bytes_before = DeviceMemoryUse::in_use;
  DeviceState<Sim> device_state(host_state, stream);
  StreamedRun<Sim> run(setup, plan, device_state, make, slots, kCompactionBlock);
  const uint64_t share = ranks::shares(c.init_n, comm.size())[comm.rank()];
  fill_initial_particles<Sim>(c, host_state.params(),
                              ranks::share_start(c.init_n, comm.size(), comm.rank()), share,
                              run.store());
  run.start_with(share);

  RunResult r = run_phase_loop<Sim>(spec, opt, host_state, run);
  const Streaming& mine = run.streaming();
  std::vector<uint64_t> sums = {mine.batches, mine.bytes_to_device, mine.bytes_to_host};
  std::vector<uint64_t> most = {DeviceMemoryUse::peak - bytes_before,
                                static_cast<uint64_t>(mine.to_device_ms * 1e6),
                                static_cast<uint64_t>(mine.to_host_ms * 1e6)};
  comm.sum(sums);
  comm.max(most);
  r.device_bytes = most[0];
  r.streaming = Streaming{mine.batch_slots,
                          sums[0],
                          sums[1],
                          sums[2],
                          static_cast<double>(most[1]) * 1e-6,
                          static_cast<double>(most[2]) * 1e-6};
  return r;
}

// The store of a run whose particles stay on the device (phase_loop.hpp): its slots, where the
// scheduler runs one phase a launch after the driver's grid work, or, for a scheduler of whole
// phases, every phase up to the next snapshot in launches of its length where one rank runs and
// the sim's grid work runs inside its kernel or there is none (whole_phases.cuh).
template <class Sim>
class DeviceStore {
 public:
  using Particle = typename Sim::Particle;
  static constexpr bool kRebalances = true;

  DeviceStore(const DeviceSetup& setup, const PhasePlan& plan, DeviceState<Sim>& state,
              MakeDeviceScheduler<Sim> make, const std::vector<Particle>& initial)
      : c_(setup.config),
        plan_(plan),
        stream_(setup.stream),
        watchdog_(setup.watchdog),
        state_(state),
        prm_(state.params()),
        particles_(c_.capacity, "the particle slots (--capacity)"),
        counters_(1, "the particle counters"),
        compactor_(setup.knobs.compaction, particles_, initial.size(), kCompactionBlock, stream_),
        n_(initial.size()) {
    SB_CUDA_CHECK(cudaMemsetAsync(particles_.data(), 0, c_.capacity * sizeof(Particle), stream_));
    SB_CUDA_CHECK(cudaMemcpyAsync(particles_.data(), initial.data(),
                                  initial.size() * sizeof(Particle), cudaMemcpyHostToDevice,
                                  stream_));
    scheduler_ = make(setup);
    whole_ = scheduler_->runs_whole_phases();
  }

  uint32_t launch(uint32_t phase, uint32_t most, std::map<std::string, double>& parts_ms) {
    const DevicePhase<Sim> ph{particles_.data(),       c_.capacity, counters_.data(),
                              watchdog_.device_flag(), prm_,        DrawKey::from_seed(c_.seed),
                              plan_.window(phase)};
    window_ = ph.window;
    if (HasPhaseWork<Sim>::value && !(whole_ && many_)) {
      grid_.start(stream_);
      state_.before_phase(ph.particles, n_, ph.window, stream_);
      grid_.stop(stream_);
      watchdog_.sync(stream_);
      parts_ms["grid"] += grid_.elapsed_ms();
    }
    const DeviceCounters start = counters_at_start(n_);
    SB_CUDA_CHECK(
        cudaMemcpyAsync(counters_.data(), &start, sizeof start, cudaMemcpyHostToDevice, stream_));
    return whole_ ? launch_whole(ph, most, parts_ms) : launch_one(ph, parts_ms);
  }
  const PhaseCount& count(uint32_t j) const { return counts_[j]; }
  void remove_dead(std::map<std::string, double>& parts_ms) {
    if (!dead_) return;
    compaction_.start(stream_);
    n_ = compactor_.compact(n_);
    compaction_.stop(stream_);
    watchdog_.sync(stream_);
    parts_ms["compaction"] += compaction_.elapsed_ms();
  }
  // Summed on the device exactly (as every engine sums); a whole-phase launch's come with it.
  ObservedSums<Sim> sums(uint32_t j) const {
    if (whole_) return whole_sums_[j];
    return thrust::transform_reduce(thrust::cuda::par.on(stream_), particles_.data(),
                                    particles_.data() + n_, PhaseSumsOf<Sim>{prm_, window_},
                                    typename Sim::PhaseSums{}, AddSums{});
  }
  uint64_t population() const { return n_; }
  std::vector<Particle> particles() const { return particles_.to_host(n_); }
  std::vector<Particle> take_particles() const { return particles(); }
  void rebalance(const ranks::RebalancePlan& plan) {
    n_ = rebalance_on_device(particles_.data(), n_, plan, ranks::world(), compactor_, stream_);
  }
  uint64_t digest() const {
    return thrust::transform_reduce(thrust::cuda::par.on(stream_), particles_.data(),
                                    particles_.data() + n_, HashParticle<Particle>{}, uint64_t{0},
                                    thrust::plus<uint64_t>());
  }
  decltype(auto) deposits() const { return state_.deposits(); }

 private:
  // One phase on this rank, and its counts.
  uint32_t launch_one(const DevicePhase<Sim>& ph, std::map<std::string, double>& parts_ms) {
    mobility_.start(stream_);
    scheduler_->run_phase(ph, n_);
    mobility_.stop(stream_);
    watchdog_.sync(stream_);
    parts_ms["mobility"] += mobility_.elapsed_ms();
    const DeviceCounters end = counters_.to_host().front();
    const SlotIndex claimed = scheduler_->slots_claimed(end);
    // The capacity bounds the slots this scheduler claimed, not the particles it ran: a scheduler
    // that keeps children without a slot or reuses dead slots fits populations that one storing
    // every particle would not (docs/design.md §3).
    if (end.overflow == kWorkQueueFull)
      throw CapacityError::of_work_queue(c_.capacity, kWorkQueuePerSlot);
    if (end.overflow != 0) throw CapacityError(c_.capacity, claimed);
    const PhaseTally tally = thrust::transform_reduce(
        thrust::cuda::par.on(stream_), particles_.data(), particles_.data() + claimed,
        TallyParticle<Particle>{ph.window}, PhaseTally{0, 0, 0}, AddTally{});
    // The particles there were: the slots a scheduler that stores each once would have used; the
    // held ones all died.
    counts_ = {{n_, claimed + end.held - tally.vacated, tally.removed, end.held,
                tally.steps + end.held_steps, claimed}};
    n_ = claimed;
    dead_ = tally.removed + tally.vacated > 0;
    return 1;
  }

  // As many phases as the scheduler takes a launch, at most `most`, and each one's counts.
  uint32_t launch_whole(const DevicePhase<Sim>& ph, uint32_t most,
                        std::map<std::string, double>& parts_ms) {
    const uint32_t k = many_ ? std::min(most, scheduler_->phases_per_launch()) : 1;
    std::optional<StepGridOf<Sim>> inside;
    if constexpr (kGridInside<Sim>) {
      if (many_) inside = state_.step_grid(ph.window.start, k * plan_.steps, stream_);
    }
    mobility_.start(stream_);
    WholePhases<Sim> run = scheduler_->run_phases(ph, n_, k, plan_.steps, inside ? &*inside : nullptr);
    mobility_.stop(stream_);
    watchdog_.sync(stream_);
    parts_ms["mobility"] += mobility_.elapsed_ms();
    if (counters_.to_host().front().overflow != 0) throw CapacityError(c_.capacity, run.claimed);
    counts_.clear();
    for (const PhaseRecord& x : run.records)
      counts_.push_back(PhaseCount{x.start, x.start + x.spawned, x.died, 0, x.steps, x.most_slots});
    whole_sums_ = std::move(run.sums);
    n_ = run.n;
    dead_ = false;  // the kernel removed them
    return k;
  }

  const RunConfig& c_;
  const PhasePlan& plan_;
  cudaStream_t stream_;
  Watchdog& watchdog_;
  DeviceState<Sim>& state_;
  const typename Sim::Params prm_;
  DeviceBuffer<Particle> particles_;
  DeviceBuffer<DeviceCounters> counters_;
  Compactor<Particle> compactor_;
  std::unique_ptr<DeviceScheduler<Sim>> scheduler_;
  bool whole_ = false;
  // Whether a launch of whole phases may take several: on one rank, with the sim's grid work
  // inside the kernel or none.
  const bool many_ = ranks::world().size() == 1 && (kGridInside<Sim> || !HasPhaseWork<Sim>::value);
  bool dead_ = false;  // the last launch left dead particles in its slots
  SlotIndex n_;
  PhaseWindow window_{};
  std::vector<PhaseCount> counts_;
  std::vector<ObservedSums<Sim>> whole_sums_;
  EventTimer grid_, mobility_, compaction_;
};

}  // namespace

template <class Sim>
RunResult run_device_phases(const RunSpec& spec, const RunOptions& opt,
                            MakeDeviceScheduler<Sim> make) {
  using Particle = typename Sim::Particle;
  const RunConfig& c = spec.config;
  ranks::Communicator& comm = ranks::world();
  const uint64_t share = ranks::shares(c.init_n, comm.size())[comm.rank()];
  on_every_rank(comm, [&] {
    check_ranks(spec, opt, comm);
    use_rank_device(comm);
    if (share > c.capacity) throw CapacityError(c.capacity, share);
  });
  if (comm.size() > 1) ranks::device_world();  // made now, every rank taking part, untimed
  HostState<Sim> host_state(spec.setup<Sim>());
  const PhasePlan& plan = spec.plan();
  const auto device = describe_device();
  if (!device) throw RunError(c.scheduler + " needs a CUDA device and none is present");
  // The particle slots (two arrays unless the compaction is in place) must fit in what the
  // device has free, or the run streams them from host memory (batches.cuh): decided before
  // anything runs rather than failing part of the way.
  const LaunchKnobs knobs = launch_knobs::of(c);
  const uint64_t arrays = knobs.compaction == "inplace" ? 1 : 2;
  const DeviceMemory memory = device_memory();
  // A sim whose grid work does not stream never streams (make_setup refuses --batch for it), so
  // its streamed driver is not compiled.
  if constexpr (kStreams<Sim>) {
    if (runs_streamed(c, knobs, sizeof(Particle), arrays, memory.free_bytes)) {
      return run_streamed<Sim>(spec, opt, make, host_state, knobs, *device, memory, arrays);
    }
  }
  const std::vector<Particle> initial = initial_particles<Sim>(
      c, host_state.params(), ranks::share_start(c.init_n, comm.size(), comm.rank()), share);
  require_memory("device",
                 fmt::format("--capacity {}{}", c.capacity,
                             arrays == 1 ? "" : " with --compaction " + knobs.compaction),
                 arrays * c.capacity, sizeof(Particle), memory.free_bytes, memory.describe());

  CudaStream stream;
  Watchdog watchdog(describe(c, knobs, plan.count, plan.steps), knobs.timeout_s);
  const DeviceSetup setup{c, knobs, *device, stream, watchdog};
  DeviceMemoryUse::reset_peak();
  const size_t bytes_before = DeviceMemoryUse::in_use;
  DeviceState<Sim> device_state(host_state, stream);
  DeviceStore<Sim> store(setup, plan, device_state, make, initial);
  RunResult r = run_phase_loop<Sim>(spec, opt, host_state, store);
  std::vector<uint64_t> bytes = {DeviceMemoryUse::peak - bytes_before};
  comm.max(bytes);
  r.device_bytes = bytes[0];
  return r;
}

// Every sim's driver, compiled in this unit: the explicit instantiation of DriversOf emits
// drivers(), whose table holds the address of each sim's driver (each variant's, for a family),
// so that each is defined here for the scheduler files to link.
template <class List>
struct DriversOf;
template <class... Entries>
struct DriversOf<SimList<Entries...>> {
  static std::vector<const void*> drivers() {
    std::vector<const void*> table;
    const auto add = [&](auto* variant) {
      using Sim = std::remove_pointer_t<decltype(variant)>;
      table.push_back(reinterpret_cast<const void*>(&run_device_phases<Sim>));
    };
    (VariantsOf<Entries>::type::for_each(add), ...);
    return table;
  }
};
template struct DriversOf<BuiltSims>;

}  // namespace sb
