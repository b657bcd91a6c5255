// cpu-sync (seed 003 §3.1.4 "CPU Sync Full", §3.3.2): a launch per generation. Each thread runs
// one particle to the end of the phase; the host then reads the count and launches over the
// particles spawned meanwhile, until a generation spawns none.
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/host_counter.hpp"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

template <class Sim>
__global__ void cpu_sync_generation(DevicePhase<Sim> ph, uint32_t first, uint32_t count) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  typename Sim::Particle p = ph.particles[first + k];
  if (!has_work(p.tag, ph.window)) return;
  run_to_end_spawning(ph, p);
  ph.particles[first + k] = p;
}

template <class Sim>
class CpuSync {
 public:
  explicit CpuSync(const DeviceSetup& s) : s_(s) {}

  void run_phase(const DevicePhase<Sim>& ph, uint32_t n) {
    const uint32_t block = s_.config.block_size;
    uint32_t last = 0;
    while (n != last) {
      const uint32_t count = n - last;
      SB_LAUNCH(cpu_sync_generation<Sim>, (count + block - 1) / block, block, 0, s_.stream, ph,
                last, count);
      last = n;
      n = counter_.read_n(s_, ph.counters, ph.capacity);
    }
  }

 private:
  const DeviceSetup& s_;
  HostCounter counter_;
};

}  // namespace

SchedulerEntry cpu_sync_entry() {
  return {"cpu-sync",
          "a launch per generation, each thread one particle to the end, the host reads the "
          "count between generations (seed §3.1.4, §3.3.2)",
          SchedulerKind::kGpu,
          {"block_size", "timeout"},
          device_runners<CpuSync>()};
}

}  // namespace sb
