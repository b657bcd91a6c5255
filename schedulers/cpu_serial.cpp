// cpu-serial: the trusted reference. One particle at a time, each run to the end of the phase;
// children are appended and reached later by the same loop.
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/host_driver.hpp"

namespace sb {
namespace {

template <class Sim>
struct CpuSerial {
  using Particle = typename Sim::Particle;

  static void run_phase(std::vector<Particle>& ps, const HostPhase<Sim>& ph) {
    for (size_t i = 0; i < ps.size(); ++i) {
      Particle p = ps[i];  // a copy: push_back below may move the vector
      run_to_end<Sim>(p, ph.params, ph.key, ph.window, [&](const Particle& child) {
        if (ps.size() >= ph.capacity) throw CapacityError(ph.capacity, ps.size() + 1);
        make_room(ps, ps.size() + 1, ph.capacity, "the particle list");
        ps.push_back(child);
      });
      ps[i] = p;
    }
  }
};

}  // namespace

SchedulerEntry cpu_serial_entry() {
  return {"cpu-serial",
          "CPU reference: one particle at a time to the end of the phase, children appended",
          SchedulerKind::kCpu,
          {},
          host_runners<CpuSerial>()};
}

}  // namespace sb
