// air on the device: the collision table and the process list, uploaded once per run. There is
// no grid work between phases.
#pragma once

#include "core/cuda_check.hpp"
#include "sims/air/air.hpp"

namespace sb {

template <class P>
class AirSimIn<P>::DeviceState {
 public:
  DeviceState(const HostState& host, cudaStream_t)
      : host_params_(host.params()),
        cumulative_(host.table().cumulative.size(), "air's collision table"),
        processes_(host.table().processes.size(), "air's process list") {
    cumulative_.copy_from_host(host.table().cumulative);
    processes_.copy_from_host(host.table().processes);
  }

  Params params() const {
    Params p = host_params_;
    p.cumulative = cumulative_.data();
    p.processes = processes_.data();
    return p;
  }

  void before_phase(Particle*, uint64_t, PhaseWindow, cudaStream_t) {}

 private:
  Params host_params_;
  DeviceBuffer<double> cumulative_;
  DeviceBuffer<air::ProcessInfo> processes_;
};

}  // namespace sb
