// Must NOT compile (ctest compile_fail_gpu_scheduler_without_run_phase, tests/CMakeLists.txt): a
// GPU scheduler whose run_phase takes the wrong arguments, registered as schedulers register
// theirs. The error must name run_phase (schedulers/scheduler_interface.hpp).
#include "schedulers/device/driver.cuh"

namespace {

template <class Sim>
class SchedulerWithoutRunPhase {
 public:
  explicit SchedulerWithoutRunPhase(const sb::DeviceSetup&) {}
  void run_phase(const sb::DevicePhase<Sim>&) {}
};

}  // namespace

sb::SchedulerEntry scheduler_without_run_phase_entry() {
  return {"bad",
          "a GPU scheduler without run_phase",
          sb::SchedulerKind::kGpu,
          {},
          sb::device_runners<SchedulerWithoutRunPhase>()};
}
