// The GPU driver of schedulers/device/driver.cuh, compiled here once for every registered sim
// (sims/registry.hpp) rather than in every scheduler's file.

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform_reduce.h>

#include <chrono>
#include <exception>
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
  StreamedRun<Sim> run(setup, device_state, make, slots, kCompactionBlock);
  const uint64_t share = ranks::shares(c.init_n, comm.size())[comm.rank()];
  fill_initial_particles<Sim>(c, host_state.params(),
                              ranks::share_start(c.init_n, comm.size(), comm.rank()), share,
                              run.store());
  run.start_with(share);

  RunResult r;
  r.counts.initial = c.init_n;
  ranks::traffic() = {};
  uint64_t digest = 0;
  for (uint32_t phase = 0; phase < plan.count; ++phase) {
    std::exception_ptr failed;
    typename StreamedRun<Sim>::PhaseOutcome here;
    try {
      here = run.run_phase(plan.window(phase), r.parts_ms);
    } catch (const RunError&) {
      failed = std::current_exception();
    }
    ranks::agree_on_failure(failed, comm);
    const PhaseCount total = sum_over_ranks(here.count, comm);
    add_phase(r.counts, total, sizeof(Particle));
    digest = here.digest;
    if constexpr (Observes<Sim>::value) {
      try {
        add_observation(r.observables, host_state.observe(here.sums, plan.window(phase),
                                                          {total.start, total.held - total.start,
                                                           total.dead + total.gone}));
      } catch (const RunError&) {
        failed = std::current_exception();
      }
      ranks::agree_on_failure(failed, comm);
    }
    if (wants_snapshot(opt, phase)) opt.on_snapshot(phase, HostParticleSet<Sim>(run.particles()));
  }
  finish_timing<Particle>(r, comm);
  if constexpr (Summarizes<Sim>::value) r.summary = host_state.summarize(device_state.deposits());
  if (plan.count == 0) digest = digest_of(run.particles());
  const Streaming& mine = run.streaming();
  std::vector<uint64_t> sums = {run.population(), digest, mine.batches, mine.bytes_to_device,
                                mine.bytes_to_host};
  std::vector<uint64_t> most = {DeviceMemoryUse::peak - bytes_before,
                                static_cast<uint64_t>(mine.to_device_ms * 1e6),
                                static_cast<uint64_t>(mine.to_host_ms * 1e6)};
  comm.sum(sums);
  comm.max(most);
  r.counts.final = sums[0];
  r.digest = sums[1];
  r.device_bytes = most[0];
  r.streaming = Streaming{mine.batch_slots,
                          sums[2],
                          sums[3],
                          sums[4],
                          static_cast<double>(most[1]) * 1e-6,
                          static_cast<double>(most[2]) * 1e-6};
  if (opt.keep_particles) r.particles = std::make_shared<HostParticleSet<Sim>>(run.particles());
  return r;
}

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
  DeviceBuffer<Particle> particles(c.capacity, "the particle slots (--capacity)");
  DeviceBuffer<DeviceCounters> counters(1, "the particle counters");
  SB_CUDA_CHECK(cudaMemsetAsync(particles.data(), 0, c.capacity * sizeof(Particle), stream));
  SB_CUDA_CHECK(cudaMemcpyAsync(particles.data(), initial.data(), initial.size() * sizeof(Particle),
                                cudaMemcpyHostToDevice, stream));
  DeviceState<Sim> device_state(host_state, stream);
  const typename Sim::Params prm = device_state.params();
  Compactor<Particle> compactor(knobs.compaction, particles, initial.size(), kCompactionBlock, stream);
  const std::unique_ptr<DeviceScheduler<Sim>> scheduler = make(setup);
  const auto on_stream = thrust::cuda::par.on(stream);

  RunResult r;
  r.counts.initial = c.init_n;
  ranks::traffic() = {};
  SlotIndex n = initial.size();
  EventTimer grid, mobility, compaction;
  const auto run_grid_work = [&](const DevicePhase<Sim>& ph) {
    grid.start(stream);
    device_state.before_phase(ph.particles, n, ph.window, stream);
    grid.stop(stream);
    watchdog.sync(stream);
    r.parts_ms["grid"] += grid.elapsed_ms();
  };
  // A phase's observation from its sums (`sums()`, made inside the agreement on failure).
  const auto observe = [&](const auto& sums, PhaseWindow w, const PhaseCount& total) {
    if constexpr (Observes<Sim>::value) {
      std::exception_ptr failed;
      try {
        add_observation(r.observables, host_state.observe(sums(), w,
                                                          {total.start, total.held - total.start,
                                                           total.dead + total.gone}));
      } catch (const RunError&) {
        failed = std::current_exception();
      }
      ranks::agree_on_failure(failed, comm);
    }
  };
  // A scheduler of whole phases runs every phase up to the next snapshot in launches of its
  // length where one rank runs and the sim's grid work runs inside its kernel or there is none;
  // otherwise one phase a launch, after the driver's grid work (whole_phases.cuh).
  const bool whole = scheduler->runs_whole_phases();
  const bool many = comm.size() == 1 && (kGridInside<Sim> || !HasPhaseWork<Sim>::value);
  const auto launch_length = [&](uint32_t phase) {
    uint32_t k = many ? std::min(plan.count - phase, scheduler->phases_per_launch()) : 1;
    if (opt.on_snapshot) {
      for (const uint32_t wanted : opt.snapshot_phases) {
        if (wanted >= phase) k = std::min(k, wanted - phase + 1);
      }
    }
    return k;
  };
  for (uint32_t phase = 0; phase < plan.count; ++phase) {
    const DevicePhase<Sim> ph{particles.data(),       c.capacity, counters.data(),
                              watchdog.device_flag(), prm,        DrawKey::from_seed(c.seed),
                              plan.window(phase)};
    if (HasPhaseWork<Sim>::value && !(whole && many)) run_grid_work(ph);
    const DeviceCounters start = counters_at_start(n);
    SB_CUDA_CHECK(
        cudaMemcpyAsync(counters.data(), &start, sizeof start, cudaMemcpyHostToDevice, stream));
    if (whole) {
      const uint32_t k = launch_length(phase);
      std::exception_ptr failed;
      WholePhases<Sim> run;
      try {
        std::optional<StepGridOf<Sim>> inside;
        if constexpr (kGridInside<Sim>) {
          if (many) inside = device_state.step_grid(ph.window.start, k * plan.steps, stream);
        }
        mobility.start(stream);
        run = scheduler->run_phases(ph, n, k, plan.steps, inside ? &*inside : nullptr);
        mobility.stop(stream);
        watchdog.sync(stream);
        if (counters.to_host().front().overflow != 0) throw CapacityError(c.capacity, run.claimed);
      } catch (const RunError&) {
        failed = std::current_exception();
      }
      ranks::agree_on_failure(failed, comm);
      r.parts_ms["mobility"] += mobility.elapsed_ms();
      for (uint32_t j = 0; j < k; ++j) {
        const PhaseRecord& x = run.records[j];
        const PhaseCount total = sum_over_ranks(
            PhaseCount{x.start, x.start + x.spawned, x.died, 0, x.steps, x.most_slots}, comm);
        add_phase(r.counts, total, sizeof(Particle));
        observe([&] { return run.sums[j]; }, plan.window(phase + j), total);
      }
      n = run.n;
      phase += k - 1;
    } else {
      // The phase on this rank; its counts, summed over the ranks once every rank has run it.
      std::exception_ptr failed;
      PhaseTally tally{0, 0, 0};
      PhaseCount here;
      SlotIndex claimed = n;
      try {
        mobility.start(stream);
        scheduler->run_phase(ph, n);
        mobility.stop(stream);
        watchdog.sync(stream);
        const DeviceCounters end = counters.to_host().front();
        claimed = scheduler->slots_claimed(end);
        // The capacity bounds the slots this scheduler claimed, not the particles it ran: a
        // scheduler that keeps children without a slot or reuses dead slots fits populations
        // that one storing every particle would not (docs/design.md §3).
        if (end.overflow == kWorkQueueFull)
          throw CapacityError::of_work_queue(c.capacity, kWorkQueuePerSlot);
        if (end.overflow != 0) throw CapacityError(c.capacity, claimed);
        tally = thrust::transform_reduce(on_stream, particles.data(), particles.data() + claimed,
                                         TallyParticle<Particle>{ph.window}, PhaseTally{0, 0, 0},
                                         AddTally{});
        // The particles there were: the slots a scheduler that stores each once would have
        // used; the held ones all died.
        here = {n,        claimed + end.held - tally.vacated, tally.removed,
                end.held, tally.steps + end.held_steps,       claimed};
      } catch (const RunError&) {
        failed = std::current_exception();
      }
      ranks::agree_on_failure(failed, comm);
      r.parts_ms["mobility"] += mobility.elapsed_ms();
      const PhaseCount total = sum_over_ranks(here, comm);
      add_phase(r.counts, total, sizeof(Particle));
      n = claimed;
      if (tally.removed + tally.vacated > 0) {
        compaction.start(stream);
        n = compactor.compact(n);
        compaction.stop(stream);
        watchdog.sync(stream);
        r.parts_ms["compaction"] += compaction.elapsed_ms();
      }
      // Observed outside the timed regions, summed on the device exactly (as every engine sums).
      if constexpr (Observes<Sim>::value) {
        observe(
            [&] {
              return thrust::transform_reduce(on_stream, particles.data(), particles.data() + n,
                                              PhaseSumsOf<Sim>{prm, ph.window},
                                              typename Sim::PhaseSums{}, AddSums{});
            },
            ph.window, total);
      }
    }
    if (wants_snapshot(opt, phase))
      opt.on_snapshot(phase, HostParticleSet<Sim>(particles.to_host(n)));
    if (comm.size() > 1 && phase + 1 < plan.count) {
      const auto t0 = std::chrono::steady_clock::now();
      const ranks::RebalancePlan moves = plan_rebalance(n, c.capacity, comm);
      if (moves.needed)
        n = rebalance_on_device(particles.data(), n, moves, comm, compactor, stream);
      r.parts_ms["rebalance"] +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      add_rebalance(r, moves);
    }
  }
  finish_timing<Particle>(r, comm);
  if constexpr (Summarizes<Sim>::value) r.summary = host_state.summarize(device_state.deposits());
  std::vector<uint64_t> sums = {
      n, thrust::transform_reduce(on_stream, particles.data(), particles.data() + n,
                                  HashParticle<Particle>{}, uint64_t{0}, thrust::plus<uint64_t>())};
  std::vector<uint64_t> bytes = {DeviceMemoryUse::peak - bytes_before};
  comm.sum(sums);
  comm.max(bytes);
  r.counts.final = sums[0];
  r.digest = sums[1];
  r.device_bytes = bytes[0];
  if (opt.keep_particles)
    r.particles = std::make_shared<HostParticleSet<Sim>>(particles.to_host(n));
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
