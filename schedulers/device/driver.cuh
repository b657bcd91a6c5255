// Runs a sim with a GPU scheduler (docs/design.md §4). The driver uploads the initial particles
// into `capacity` zeroed slots, runs each phase through the scheduler between device events,
// derives the counts from the particles, removes the dead, and digests the result on the device.
//
// A GPU scheduler is a class template over the sim with
//   explicit Scheduler(const DeviceSetup&);      // sizes grids, allocates scratch
//   void run_phase(const DevicePhase<Sim>&, SlotIndex n_start);
// run_phase enqueues (and may wait on, through DeviceSetup::watchdog) work on DeviceSetup::stream
// that takes every particle with work to the end of the window, appending children at the
// counter n. The driver waits for the stream afterwards. schedulers/scheduler_interface.hpp
// checks both members at compile time.
//
// The driver's own work does not depend on the scheduler, so it is compiled once per sim, in
// driver.cu, and reaches the scheduler through DeviceScheduler: a scheduler's file compiles its
// own kernels only (the driver's reductions, compaction and the sims' grid work were most of
// each scheduler file's compile time).
#pragma once

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/cuda_check.hpp"
#include "core/run_config.hpp"
#include "core/run_result.hpp"
#include "schedulers/device/phase.cuh"
#include "schedulers/device/whole_phases.cuh"
#include "schedulers/run_spec.hpp"
#include "schedulers/scheduler.hpp"
#include "schedulers/scheduler_interface.hpp"

namespace sb {

class CudaStream {
 public:
  CudaStream() { SB_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~CudaStream() { cudaStreamDestroy(s_); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  operator cudaStream_t() const { return s_; }

 private:
  cudaStream_t s_{};
};

// An event that only orders work between streams (no timing).
class CudaEvent {
 public:
  CudaEvent() { SB_CUDA_CHECK(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming)); }
  ~CudaEvent() { cudaEventDestroy(e_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  operator cudaEvent_t() const { return e_; }

 private:
  cudaEvent_t e_{};
};

// Milliseconds between two events recorded on a stream.
class EventTimer {
 public:
  EventTimer() {
    SB_CUDA_CHECK(cudaEventCreate(&start_));
    SB_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t s) { SB_CUDA_CHECK(cudaEventRecord(start_, s)); }
  void stop(cudaStream_t s) { SB_CUDA_CHECK(cudaEventRecord(stop_, s)); }
  double elapsed_ms() const {
    float ms = 0;
    SB_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

// A GPU scheduler for one run, as the driver sees it.
template <class Sim>
class DeviceScheduler {
 public:
  virtual ~DeviceScheduler() = default;
  virtual void run_phase(const DevicePhase<Sim>& ph, SlotIndex n_start) = 0;
  // The slots the phase claimed, from the counters at its end: n, unless the scheduler hands
  // out work through a queue (WorkQueue, phase.cuh).
  virtual SlotIndex slots_claimed(const DeviceCounters& end) const = 0;
  // A scheduler of whole phases (whole_phases.cuh) runs them through run_phases instead.
  virtual bool runs_whole_phases() const = 0;
  virtual uint32_t phases_per_launch() const = 0;
  virtual WholePhases<Sim> run_phases(const DevicePhase<Sim>& first, SlotIndex n, uint32_t phases,
                                      uint32_t steps, const StepGridOf<Sim>* grid) = 0;
};

// A scheduler's optional `SlotIndex slots_claimed(const DeviceCounters&) const`.
template <class Scheduler, class = void>
struct CountsItsSlots : std::false_type {};
template <class Scheduler>
struct CountsItsSlots<Scheduler,
                      std::void_t<decltype(std::declval<const Scheduler&>().slots_claimed(
                          std::declval<const DeviceCounters&>()))>> : std::true_type {};

// A scheduler of whole phases: one with run_phases (whole_phases.cuh).
template <class Scheduler, class Sim, class = void>
struct RunsWholePhases : std::false_type {};
template <class Scheduler, class Sim>
struct RunsWholePhases<Scheduler, Sim,
                       std::void_t<decltype(std::declval<Scheduler&>().run_phases(
                           std::declval<const DevicePhase<Sim>&>(), SlotIndex{}, 0u, 0u,
                           std::declval<const StepGridOf<Sim>*>()))>> : std::true_type {};

// Makes the run's scheduler once the driver has set up the device.
template <class Sim>
using MakeDeviceScheduler = std::unique_ptr<DeviceScheduler<Sim>> (*)(const DeviceSetup&);

// The driver (defined in driver.cu, which compiles it for every registered sim).
template <class Sim>
RunResult run_device_phases(const RunSpec& spec, const RunOptions& opt,
                            MakeDeviceScheduler<Sim> make);

template <class Sim, template <class> class Scheduler>
class SchedulerOfRun final : public DeviceScheduler<Sim> {
 public:
  explicit SchedulerOfRun(const DeviceSetup& s) : scheduler_(s) {}
  void run_phase(const DevicePhase<Sim>& ph, SlotIndex n_start) override {
    if constexpr (kWhole) {
      throw std::logic_error("a scheduler of whole phases runs them through run_phases");
    } else {
      scheduler_.run_phase(ph, n_start);
    }
  }
  SlotIndex slots_claimed(const DeviceCounters& end) const override {
    if constexpr (CountsItsSlots<Scheduler<Sim>>::value) return scheduler_.slots_claimed(end);
    return end.n;
  }
  bool runs_whole_phases() const override { return kWhole; }
  uint32_t phases_per_launch() const override {
    if constexpr (kWhole) return scheduler_.phases_per_launch();
    return 1;
  }
  WholePhases<Sim> run_phases(const DevicePhase<Sim>& first, SlotIndex n, uint32_t phases,
                              uint32_t steps, const StepGridOf<Sim>* grid) override {
    if constexpr (kWhole) {
      return scheduler_.run_phases(first, n, phases, steps, grid);
    } else {
      throw std::logic_error("a scheduler of single phases runs them through run_phase");
    }
  }

 private:
  static constexpr bool kWhole = RunsWholePhases<Scheduler<Sim>, Sim>::value;
  Scheduler<Sim> scheduler_;
};

template <class Sim, template <class> class Scheduler>
RunResult run_on_device(const RunSpec& spec, const RunOptions& opt) {
  static_assert(check_device_scheduler<Scheduler<Sim>, DeviceSetup, DevicePhase<Sim>,
                                       RunsWholePhases<Scheduler<Sim>, Sim>::value>());
  return run_device_phases<Sim>(spec, opt,
                                [](const DeviceSetup& s) -> std::unique_ptr<DeviceScheduler<Sim>> {
                                  return std::make_unique<SchedulerOfRun<Sim, Scheduler>>(s);
                                });
}

// `Sims` is part of the instantiation's name, so that the two builds of the schedulers (BuiltSims,
// schedulers/scheduler.hpp) link into one program.
template <template <class> class Scheduler, class Sims = BuiltSims>
std::map<std::string, SimRunner> device_runners() {
  return run_fns<Sims>([](auto* sim) -> RunFn {
    return &run_on_device<std::remove_pointer_t<decltype(sim)>, Scheduler>;
  });
}

}  // namespace sb
