// Must NOT compile (ctest compile_fail_engine_without_run_phase, tests/CMakeLists.txt): a host
// engine whose run_phase is misnamed, registered as schedulers register theirs. The error must
// name run_phase (schedulers/scheduler_interface.hpp).
#include "schedulers/host_driver.hpp"

namespace {

template <class Sim>
struct EngineWithoutRunPhase {
  static sb::HostTally run(std::vector<typename Sim::Particle>&, const sb::HostPhase<Sim>&) {
    return {};
  }
};

}  // namespace

sb::SchedulerEntry engine_without_run_phase_entry() {
  return {"bad",
          "a host engine without run_phase",
          sb::SchedulerKind::kCpu,
          {},
          sb::host_runners<EngineWithoutRunPhase>()};
}
