// GPU schedulers that run several whole phases in one launch (persistent-cycle): what the driver
// gives them and what they give back (docs/design.md §4, "Several phases in one launch").
//
// Such a scheduler also defines
//   uint32_t phases_per_launch() const;  // the most phases one run_phases call takes
//   WholePhases<Sim> run_phases(const DevicePhase<Sim>& first, SlotIndex n, uint32_t phases,
//                               uint32_t steps, const StepGridOf<Sim>* grid);
// which takes the n particles in slots [0, n) through `phases` phases of `steps` steps from
// `first`'s window, removes the dead as it goes, and leaves the survivors in [0, n') with n'
// returned. Where `grid` is given it does the sim's grid work of every step itself; where it is
// null, the sim has no grid work, or phases is 1 and the driver did that phase's before. Such a
// scheduler needs no run_phase: the driver calls run_phases alone. The counts and the
// observation of each phase come back as records, so that the driver reads them once a launch
// rather than once a phase.
//
// A sim does its grid work inside such a kernel where it names the type of that work,
//   using StepGrid = ...;  // declared in the sim's header, defined beside its device state
// and its device state has
//   StepGrid step_grid(uint32_t first_step, uint32_t steps, cudaStream_t);
// returning a trivially copyable value with
//   SB_HD size_t shared_bytes() const;  // dynamic shared memory a block sums its deposits in
//   __device__ void begin_deposits(unsigned long long* shared) const;  // once, every thread
//   __device__ void deposit(const Particle&, uint32_t step, unsigned long long* shared) const;
//                                            // p alive as `step` starts
//   __device__ void end_deposits(unsigned long long* shared, uint32_t step) const;
//                                            // every thread, after a __syncthreads
//   __device__ void solve(uint32_t step) const;  // every thread of the grid, once every particle
//                                                // alive as `step` starts is deposited
// (`shared` is null where shared_bytes() is 0). The kernel calls begin_deposits once, then each
// step's deposits and end_deposits, which leaves the shared sums empty for the next step. A
// kernel's particles fill its first blocks, so solve gives its work to the grid's last blocks
// first: those a small population leaves empty, while the others finish their phases.
// (sims/ccp/device_state.cuh). Steps start a launch with its particles deposited for the first.
// The type is the sim's own so that every unit sees the same answer, whether or not it includes
// the device state.
#pragma once

#include <cuda_runtime_api.h>

#include <type_traits>
#include <vector>

#include "core/sim_state.hpp"
#include "schedulers/device/phase.cuh"
#include "schedulers/device/sim_device_state.cuh"

namespace sb {

// One phase's counts, as the driver's tally gives them for a phase run on its own (driver.cu).
// Summed over a kernel's blocks, of which one alone counts start and most_slots.
struct PhaseRecord {
  unsigned long long start;       // alive as the phase started
  unsigned long long spawned;     // children made in it
  unsigned long long died;        // particles that died in it
  unsigned long long steps;       // particle-steps taken in it
  unsigned long long most_slots;  // the most slots its particles took at once

  SB_HD PhaseRecord operator+(const PhaseRecord& o) const {
    return {start + o.start, spawned + o.spawned, died + o.died, steps + o.steps,
            most_slots + o.most_slots};
  }
};

// A phase's observed sums, where the sim observes its particles (core/sim_state.hpp), or none.
struct NoPhaseSums {
  SB_HD NoPhaseSums operator+(const NoPhaseSums&) const { return {}; }
};
template <class Sim, bool = Observes<Sim>::value>
struct PhaseSumsOrNone {
  using type = NoPhaseSums;
};
template <class Sim>
struct PhaseSumsOrNone<Sim, true> {
  using type = typename Sim::PhaseSums;
};
template <class Sim>
using ObservedSums = typename PhaseSumsOrNone<Sim>::type;

template <class Sim>
struct WholePhases {
  std::vector<PhaseRecord> records;    // one a phase
  std::vector<ObservedSums<Sim>> sums;  // one a phase: the sums over its survivors
  SlotIndex n = 0;                      // the survivors, in slots [0, n)
  SlotIndex claimed = 0;                // the most slots a step asked for (past capacity: full)
};

// The grid work of a sim that has none inside the kernel.
template <class Sim>
struct NoStepGrid {
  SB_HD size_t shared_bytes() const { return 0; }
  __device__ void begin_deposits(unsigned long long*) const {}
  __device__ void deposit(const typename Sim::Particle&, uint32_t, unsigned long long*) const {}
  __device__ void end_deposits(unsigned long long*, uint32_t) const {}
  __device__ void solve(uint32_t) const {}
};

template <class Sim, class = void>
struct StepGridTraits {
  using type = NoStepGrid<Sim>;
  static constexpr bool kInside = false;
};
template <class Sim>
struct StepGridTraits<Sim, std::void_t<typename Sim::StepGrid>> {
  using type = typename Sim::StepGrid;
  static constexpr bool kInside = true;
};
template <class Sim>
using StepGridOf = typename StepGridTraits<Sim>::type;
// Whether Sim's grid work runs inside a kernel of whole phases.
template <class Sim>
inline constexpr bool kGridInside = StepGridTraits<Sim>::kInside;

}  // namespace sb
