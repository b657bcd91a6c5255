// bound: the yardstick of docs/design.md §6, not a simulation. It does the particle-steps of the
// real run with a fixed, perfectly balanced population and no spawn bookkeeping: a persistent
// grid where every thread advances one particle (taken from the initial particles) through the
// same step function for its equal share of the steps, dropping children. Its time is what the
// hardware needs for the arithmetic alone; a scheduler's efficiency is bound time / its time.
//
// The particle-steps to do, and the population, come from the real run of the configuration that
// the registry makes first, untimed (RunOptions::reference): the bound's particles are the run's
// final ones (its initial ones if none survive), so that they carry the velocities and
// accelerations the run's particles have, and the step costs what it costs in the run.
#include <algorithm>
#include <stdexcept>

#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/sim_device_state.cuh"
#include "schedulers/entries.hpp"
#include "schedulers/host_driver.hpp"
#include "sims/device_states.cuh"

namespace sb {
namespace {

template <class Sim, int kBound>
__global__ void SB_BLOCK_BOUND(kBound)
    balanced_steps(const typename Sim::Particle* initial, SlotIndex init_n,
                   typename Sim::Params params, DrawKey key, uint32_t phase_steps,
                   unsigned long long total_steps, typename Sim::Particle* sink) {
  const uint32_t threads = gridDim.x * blockDim.x;
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long mine = total_steps / threads + (tid < total_steps % threads ? 1 : 0);
  typename Sim::Particle p = initial[tid % init_n], child;
  // The particle goes on from the step it reached, through phases of the run's length, so that
  // a sim with a clock (air) finds its clock and step counter in agreement and ends its flights
  // at phase ends as the run does.
  const uint32_t step = p.tag.step;
  p.tag = ParticleTag::make(p.tag.id(), step);
  PhaseWindow window{step - step % phase_steps, step - step % phase_steps + phase_steps};
  StepDraws draws(key, p.tag.id(), step);
  for (unsigned long long k = 0; k < mine; ++k) {
    advance<Sim>(p, child, params, draws, window);
    p.tag.status = kAlive;  // a particle that dies goes on: the population stays fixed
    if (p.tag.step == window.end) window = {window.end, window.end + phase_steps};
  }
  sink[tid] = p;  // keeps the work observable to the compiler
}

template <class Sim>
RunResult run_bound(const RunSpec& spec, const RunOptions& opt) {
  using Particle = typename Sim::Particle;
  const RunConfig& c = spec.config;
  if (!opt.reference || !opt.reference->particles) {
    throw std::logic_error("bound: run without the reference run (RunOptions::reference)");
  }
  const RunResult& real = *opt.reference;

  const HostState<Sim> host_state(spec.setup<Sim>());
  const auto& final = dynamic_cast<const HostParticleSet<Sim>&>(*real.particles).particles();
  const auto device = describe_device();
  CudaStream stream;
  const PhasePlan& plan = spec.plan();
  const LaunchKnobs knobs = launch_knobs::of(c);
  Watchdog watchdog(describe(c, knobs, plan.count, plan.steps), knobs.timeout_s);
  const DeviceSetup setup{c, knobs, *device, stream, watchdog};
  DeviceState<Sim> device_state(host_state, stream);
  const typename Sim::Params prm = device_state.params();
  const auto kernel = kernel_for_block(balanced_steps<Sim, kAnyBlock>,
                                       balanced_steps<Sim, kLargestBlockBound<Sim>>, setup);
  const uint32_t grid = persistent_grid(kernel, setup);
  const uint32_t threads = grid * knobs.block_size;
  // Thread t takes particle t % count: no more than one a thread need be on the device (a run's
  // millions of final particles would otherwise be copied, or drawn, at every repetition).
  const size_t count = std::min<size_t>(final.empty() ? c.init_n : final.size(), threads);
  DeviceBuffer<Particle> first(count, "bound's particles"), sink(threads, "bound's sink");
  if (final.empty()) {
    first.copy_from_host(initial_particles<Sim>(c, host_state.params(), 0, count));
  } else {
    first.copy_from_host(final.data(), count);
  }

  EventTimer timer;
  timer.start(stream);
  launch(setup, kernel, grid, 0, first.data(), static_cast<SlotIndex>(count), prm,
         DrawKey::from_seed(c.seed), plan.steps, real.counts.particle_steps, sink.data());
  timer.stop(stream);
  watchdog.sync(stream);

  RunResult r;
  r.counts.initial = c.init_n;
  r.counts.final = threads;
  r.counts.peak = threads;
  r.counts.slots_used = threads;
  r.counts.peak_live = threads;
  r.counts.particle_steps = real.counts.particle_steps;
  r.time_ms = timer.elapsed_ms();
  r.parts_ms["mobility"] = r.time_ms;
  return r;
}

}  // namespace

SchedulerEntry bound_entry() {
  return {"bound",
          "yardstick, not a simulation: the run's particle-steps on a fixed, balanced population "
          "with no spawn bookkeeping",
          SchedulerKind::kYardstick, launch_knobs::grid_shape(), run_fns([](auto* sim) -> RunFn {
            return &run_bound<std::remove_pointer_t<decltype(sim)>>;
          })};
}

}  // namespace sb
