// cpu-serial: the trusted reference. One particle of the vector at a time, in index order, each
// run to the end of the phase and followed by its descendants, depth first; survivors take the
// slots of the dead (schedulers/depth_first.hpp).
#include <algorithm>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "schedulers/depth_first.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/host_driver.hpp"

namespace sb {
namespace {

template <class Sim>
struct CpuSerial {
  using Particle = typename Sim::Particle;

  // A child holds a slot from its birth until it dies or takes a dead particle's: in use are the
  // vector's slots, the children waiting and the one running.
  struct Slots {
    std::vector<Particle>& ps;
    uint64_t capacity;
    uint64_t in_use;
    uint64_t most;

    bool claim() {
      if (in_use == capacity) throw CapacityError(capacity, in_use + 1);
      most = std::max(most, ++in_use);
      return true;
    }
    void release() { --in_use; }
    void append(const Particle& p) {
      make_room(ps, ps.size() + 1, capacity, "the particle list");
      ps.push_back(p);
    }
  };

  static HostTally run_phase(std::vector<Particle>& ps, const HostPhase<Sim>& ph) {
    Slots slots{ps, ph.capacity, ps.size(), ps.size()};
    DepthFirst<Sim> runner(ps, ph);
    const size_t n = ps.size();  // the survivors appended after it have ended the phase
    for (size_t i = 0; i < n; ++i)
      runner.run_slot(i, slots);
    HostTally tally = runner.tally();
    tally.most_slots = slots.most;
    return tally;
  }
};

}  // namespace

SchedulerEntry cpu_serial_entry() {
  return {"cpu-serial",
          "CPU reference: one particle at a time to the end of the phase, children depth first "
          "in the slots of the dead",
          SchedulerKind::kCpu,
          {},
          host_runners<CpuSerial>()};
}

}  // namespace sb
