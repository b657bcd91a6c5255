// event-compact (ours): the event-based design of GPU Monte Carlo transport codes. A list of
// the particles that still have work is kept compact; every step is one launch over that list,
// with one thread per listed particle. Children are staged beside the list with a flag;
// cub::DeviceSelect::Flagged compacts the flags into the positions of the spawners, a gather
// appends those children to the particle array, and they are listed. Particles that end are
// dropped from the list with cub::DeviceSelect::If. The host reads two counters per step to
// size the next launch, as such codes do.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sequence.h>
#include <cub/device/device_select.cuh>

#include "core/grid_shape.hpp"
#include "schedulers/device/driver.cuh"
#include "schedulers/device/grid.cuh"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/device/step_once.cuh"
#include "schedulers/entries.hpp"

namespace sb {
namespace {

struct StepCounts {
  SlotIndex spawned;  // children staged this step
  SlotIndex ended;    // listed particles left without work (dead or at the phase's end)
};

template <class Sim, int kBound>
__global__ void SB_BLOCK_BOUND(kBound)
    event_step(DevicePhase<Sim> ph, const SlotIndex* listed, SlotIndex count,
               typename Sim::Particle* staged, unsigned char* staged_flags, StepCounts* counts) {
  const SlotIndex j = grid_thread_index();
  bool spawned = false, ended = false;
  if (j < count) {
    typename Sim::Particle* slot = ph.particles + listed[j];
    typename Sim::Particle p = *slot, child;
    spawned = step_once(ph, p, child);
    *slot = p;
    if (spawned) staged[j] = child;
    staged_flags[j] = spawned ? 1 : 0;
    ended = !has_work(p.tag, ph.window);
  }
  // One atomic per warp and counter.
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int s = __popc(__ballot_sync(0xFFFFFFFFu, spawned));
  const unsigned int e = __popc(__ballot_sync(0xFFFFFFFFu, ended));
  if (lane == 0 && s > 0) atomicAdd(&counts->spawned, SlotIndex{s});
  if (lane == 0 && e > 0) atomicAdd(&counts->ended, SlotIndex{e});
}

// Appends the staged children of the spawners listed in `spawners` after the particles.
template <class Particle>
__global__ void append_children(const Particle* staged, const SlotIndex* spawners, SlotIndex count,
                                Particle* out) {
  const SlotIndex k = grid_thread_index();
  if (k < count) out[k] = staged[spawners[k]];
}

template <class Sim>
struct HasWorkAt {
  const typename Sim::Particle* particles;
  PhaseWindow window;
  __device__ bool operator()(SlotIndex i) const { return has_work(particles[i].tag, window); }
};

// What the host reads back, in pinned memory.
struct HostWords {
  StepCounts counts;
  SlotIndex selected;  // how many a selection kept
  SlotIndex n;         // the particle count at the end of the phase, for the driver
};

template <class Sim>
class EventCompact {
 public:
  using Particle = typename Sim::Particle;

  explicit EventCompact(const DeviceSetup& s)
      : s_(s),
        staged_(s.config.capacity, "event-compact's staged particles"),
        flags_(s.config.capacity, "event-compact's flags"),
        list_(s.config.capacity, "event-compact's list of live particles"),
        spare_list_(s.config.capacity, "event-compact's second list"),
        spawners_(s.config.capacity, "event-compact's list of spawners"),
        counts_(1, "event-compact's step counts"),
        selected_(1, "event-compact's selection count"),
        step_(kernel_for_block(event_step<Sim, kAnyBlock>, event_step<Sim, kLargestBlockBound<Sim>>,
                               s)) {
    SB_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&host_), sizeof(HostWords)));
    // Temporary storage for the largest of the three selections.
    const SlotIndex most = s.config.capacity;
    const HasWorkAt<Sim> any{nullptr, {}};
    size_t flagged = 0, from_list = 0, from_range = 0;
    SB_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, flagged,
                                             thrust::counting_iterator<SlotIndex>(0), flags_.data(),
                                             spawners_.data(), selected_.data(), most, s.stream));
    SB_CUDA_CHECK(cub::DeviceSelect::If(nullptr, from_list, list_.data(), spare_list_.data(),
                                        selected_.data(), most, any, s.stream));
    SB_CUDA_CHECK(cub::DeviceSelect::If(nullptr, from_range,
                                        thrust::counting_iterator<SlotIndex>(0), list_.data(),
                                        selected_.data(), most, any, s.stream));
    temp_ = DeviceBuffer<unsigned char>(std::max({flagged, from_list, from_range}),
                                        "event-compact's CUB scratch");
  }
  ~EventCompact() { cudaFreeHost(host_); }
  EventCompact(const EventCompact&) = delete;
  EventCompact& operator=(const EventCompact&) = delete;

  void run_phase(const DevicePhase<Sim>& ph, SlotIndex n) {
    const HasWorkAt<Sim> has_work_at{ph.particles, ph.window};
    SlotIndex listed =
        select(thrust::counting_iterator<SlotIndex>(0), list_.data(), n, has_work_at);
    const uint32_t block = s_.knobs.block_size;
    for (uint32_t t = ph.window.start; t < ph.window.end && listed > 0; ++t) {
      SB_CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, sizeof(StepCounts), s_.stream));
      launch(s_, step_, blocks_for(listed, block), 0, ph, list_.data(), listed, staged_.data(),
             flags_.data(), counts_.data());
      SB_CUDA_CHECK(cudaMemcpyAsync(&host_->counts, counts_.data(), sizeof(StepCounts),
                                    cudaMemcpyDeviceToHost, s_.stream));
      s_.watchdog.sync(s_.stream);
      const StepCounts c = host_->counts;
      const SlotIndex stepped = listed;
      if (n + c.spawned > ph.capacity) {
        // What a device-side spawn past the capacity leaves: n past it and the flag set, so that
        // the driver fails the run as it does for the other schedulers.
        DeviceCounters at_overflow = counters_at_start(n + c.spawned);
        at_overflow.overflow = 1;
        SB_CUDA_CHECK(cudaMemcpyAsync(ph.counters, &at_overflow, sizeof at_overflow,
                                      cudaMemcpyHostToDevice, s_.stream));
        s_.watchdog.sync(s_.stream);
        return;
      }
      const bool last_step = t + 1 == ph.window.end;
      if (c.ended > 0 && !last_step) {
        listed = select(list_.data(), spare_list_.data(), listed, has_work_at);
        std::swap(list_, spare_list_);
      }
      if (c.spawned > 0) {
        size_t bytes = temp_.size();
        SB_CUDA_CHECK(cub::DeviceSelect::Flagged(
            temp_.data(), bytes, thrust::counting_iterator<SlotIndex>(0), flags_.data(),
            spawners_.data(), selected_.data(), stepped, s_.stream));
        launch(s_, append_children<Particle>, blocks_for(c.spawned, block), 0, staged_.data(),
               spawners_.data(), c.spawned, ph.particles + n);
        // Children born at the last step, or not simulated, have no work and are not listed.
        if (Sim::simulates_children(ph.params) && !last_step) {
          thrust::sequence(thrust::cuda::par.on(s_.stream), list_.data() + listed,
                           list_.data() + listed + c.spawned, n);
          listed += c.spawned;
        }
        n += c.spawned;
      }
    }
    host_->n = n;
    SB_CUDA_CHECK(cudaMemcpyAsync(&ph.counters->n, &host_->n, sizeof(SlotIndex),
                                  cudaMemcpyHostToDevice, s_.stream));
    s_.watchdog.sync(s_.stream);
  }

 private:
  // cub::DeviceSelect::If from `in` to `out`; returns how many were kept.
  template <class In>
  SlotIndex select(In in, SlotIndex* out, SlotIndex count, const HasWorkAt<Sim>& keep) {
    if (count == 0) return 0;
    size_t bytes = temp_.size();
    SB_CUDA_CHECK(cub::DeviceSelect::If(temp_.data(), bytes, in, out, selected_.data(), count, keep,
                                        s_.stream));
    SB_CUDA_CHECK(cudaMemcpyAsync(&host_->selected, selected_.data(), sizeof(SlotIndex),
                                  cudaMemcpyDeviceToHost, s_.stream));
    s_.watchdog.sync(s_.stream);
    return host_->selected;
  }

  const DeviceSetup& s_;
  DeviceBuffer<Particle> staged_;
  DeviceBuffer<unsigned char> flags_;
  DeviceBuffer<SlotIndex> list_, spare_list_;
  DeviceBuffer<SlotIndex> spawners_;  // list positions of this step's spawners
  DeviceBuffer<StepCounts> counts_;
  DeviceBuffer<SlotIndex> selected_;
  DeviceBuffer<unsigned char> temp_{"event-compact's CUB scratch"};
  void (*step_)(DevicePhase<Sim>, const SlotIndex*, SlotIndex, Particle*, unsigned char*,
                StepCounts*);
  HostWords* host_ = nullptr;
};

}  // namespace

SchedulerEntry event_compact_entry() {
  return {"event-compact",
          "a launch per step over a compact list of particles with work; children appended and "
          "ended particles dropped with CUB (event-based GPU Monte Carlo; ours)",
          SchedulerKind::kGpu,
          {&launch_knobs::block_size()},
          device_runners<EventCompact>()};
}

}  // namespace sb
