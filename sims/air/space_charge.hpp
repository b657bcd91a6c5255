// air's --space-charge (docs/physics.md, "air with --space-charge"): the field of the electrons
// and of the positive ions that ionization leaves behind, added to the applied field.
// At every phase boundary the electrons (charge -e) and the ions (+e, immobile, where the electron
// of their ionization was born) are deposited on a mesh of --grid nodes per side that covers them
// both, Poisson's equation is solved in free space (the open FFT solve of fields/), and each flight
// of the phase reads the field where the flight starts. Here: what host and device share, the
// variant's sim, and the host's field (the device's is sims/air/device_space_charge.cuh).
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/run_config.hpp"
#include "core/sim_list.hpp"
#include "fields/field.hpp"
#include "fields/mesh.hpp"
#include "fields/mesh_field.hpp"
#include "fields/poisson.hpp"
#include "sims/air/air.hpp"

namespace sb {
namespace air {

// An electron and its birth point, where the positive ion of its ionization stands (an initial
// electron's: where it starts, so that the initial swarm is neutral).
struct ChargedParticle : Particle {
  double bx, by, bz;  // m

  template <class F>
  SB_HD void visit(F&& f) const {
    Particle::visit(f);
    f("bx", bx);
    f("by", by);
    f("bz", bz);
  }
};
static_assert(sizeof(ChargedParticle) == 144, "no padding: digests and copies see every byte");

// air's count of the steps taken (its flights, sims/air/air.hpp); without it the engines' call
// would pick core/particle.hpp's template, an exact match, and count the whole window.
SB_HD inline uint32_t steps_in_phase(const ChargedParticle& p, PhaseWindow w) {
  return air::steps_in_phase(static_cast<const Particle&>(p), w);
}

// Whether p's ion joins the ions before phase w: p was born in the phase before it (its first
// step, birth step + 1, lies in (w.start - S, w.start]), or p is an initial electron and w is the
// first phase.
SB_HD inline bool ion_pending(const ChargedParticle& p, PhaseWindow w, uint32_t steps_per_phase) {
  return p.tag.first_step <= w.start && w.start - p.tag.first_step < steps_per_phase;
}

// Whether p attached in the phase before: its charge stays there as a negative ion, immobile like
// the positive ones (docs/physics.md).
SB_HD inline bool negative_ion_pending(const ChargedParticle& p) {
  return p.attached != 0;
}

// The space-charge field at the mesh nodes (V/m) and the mesh, which moves with the swarm at every
// phase boundary; `mesh` points to it (host or device memory), so Params stay the run's.
struct SpaceChargeView {
  const double* ex = nullptr;
  const double* ey = nullptr;
  const double* ez = nullptr;
  const fields::Mesh* mesh = nullptr;
};

// The space-charge field at (x, y, z), gathered with the deposit's weights; zero outside the mesh
// (a flight that starts beyond it, which the mesh's margin makes rare).
SB_HD inline void space_charge_at(const SpaceChargeView& v, double x, double y, double z,
                                  double e[3]) {
  const fields::Mesh m = *v.mesh;
  const double side = (m.n - 1) * m.h;
  e[0] = e[1] = e[2] = 0;
  const double p[3] = {x, y, z};
  for (int a = 0; a < 3; ++a) {
    if (!(p[a] >= m.origin[a] && p[a] <= m.origin[a] + side)) return;
  }
  fields::gather(m, fields::Boundary::kOpen, v.ex, v.ey, v.ez, x, y, z, e);
}

struct SpaceChargeParams : Params {
  SpaceChargeView field;
};

// The smallest box around points, per axis.
struct Box {
  double lo[3] = {INFINITY, INFINITY, INFINITY};
  double hi[3] = {-INFINITY, -INFINITY, -INFINITY};

  SB_HD void add(double x, double y, double z) {
    const double p[3] = {x, y, z};
    for (int a = 0; a < 3; ++a) {
      lo[a] = fmin(lo[a], p[a]);
      hi[a] = fmax(hi[a], p[a]);
    }
  }
  SB_HD static Box merged(const Box& a, const Box& b) {
    Box m;
    for (int i = 0; i < 3; ++i) {
      m.lo[i] = fmin(a.lo[i], b.lo[i]);
      m.hi[i] = fmax(a.hi[i], b.hi[i]);
    }
    return m;
  }
};

// The mesh of n nodes per side around `box`: a cube centred on it, kMeshMargin times its largest
// extent on a side (at least kMinMeshSide), so that the electrons of a phase stay on it while they
// drift. A box is the same on every engine (min and max do not round), so the mesh is too.
inline constexpr double kMeshMargin = 1.5;
inline constexpr double kMinMeshSide = 1e-9;  // m: a swarm still at one point
fields::Mesh mesh_around(const Box& box, int n);

// The box around every rank's `box` (docs/design.md §10): each rank's electrons and ions go on
// one mesh, whose charges the field sums over the ranks.
Box over_ranks(Box box);

// The unit mesh the open solver is made for: the free-space Green's function of a mesh of spacing
// h is the unit mesh's divided by h, so a solve for rho h^2 on the unit mesh gives the potential
// of rho on the mesh of spacing h, and one solver (plans made once) serves a mesh that moves.
fields::Mesh unit_mesh(int n);

// The charge per particle for the density handed to the unit mesh's solver: e / h, which
// fields::charge_density (with the unit mesh's h of 1) turns into rho h^2.
inline double unit_mesh_charge(double h) {
  return kElementaryCharge / h;
}

// The mesh's node count and where a GPU run solves: from --grid (UsageError where it is not a
// power of two) and --field-solver.
struct SpaceChargeSetup {
  int nodes;
  bool solve_on_device;
};
SpaceChargeSetup space_charge_setup(const RunConfig& c);

// The acceleration of an electron in the field e (V/m), added to the applied field's.
inline constexpr double kChargeOverMass = -kElementaryCharge / kElectronMass;

// What a field too large for the device names (fields::require_field_fits): the option that
// sized it.
std::string field_what(const SpaceChargeSetup& setup);

// The field on the host, solved by FFTW.
class HostSpaceCharge {
 public:
  explicit HostSpaceCharge(int nodes);

  // Adds the positive ions of the electrons born in the phase before w, places the mesh around
  // the electrons and all ions and solves their field, then adds the negative ions of the
  // electrons attached in the phase before w (until w's first step they deposit as electrons).
  void update(const std::vector<ChargedParticle>& ps, PhaseWindow w, uint32_t steps_per_phase);
  SpaceChargeView view() const { return {field_.ex(), field_.ey(), field_.ez(), mesh_.get()}; }

 private:
  std::unique_ptr<fields::Mesh> mesh_;  // a pointer that stays put: the Params hold it; the unit
                                        // mesh until the first update
  fields::HostMeshField field_;         // made for the unit mesh (unit_mesh)
  std::vector<double> ions_;            // x, y, z of each positive ion
  std::vector<double> negative_ions_;   // x, y, z of each negative ion
  Box ion_box_;                         // around both
};

}  // namespace air

// The space charge's variant of air (--space-charge): air's tables, phases and observables, with
// the field of its own charges added to the applied one in each flight.
struct AirSpaceChargeSim : AirSim {
  using Particle = air::ChargedParticle;
  using Params = air::SpaceChargeParams;
  // The space charge's field at the flight's start stays live in the step (kStepRegisters):
  // dynamic-warp runs it faster at 80 registers than at its cap of 72 (docs/performance.md,
  // "What each scheduler costs and why", has the times).
  static constexpr int kStepRegisters = 80;

  // air's setup, and the space charge's mesh and solver, built once per run.
  struct Setup {
    explicit Setup(const RunConfig& c);
    PhasePlan phases() const { return air_setup->phases(); }

    std::shared_ptr<const AirSim::Setup> air_setup;
    air::SpaceChargeSetup space_charge;
  };
  class HostState {
   public:
    explicit HostState(std::shared_ptr<const Setup> setup);
    Params params() const { return {air_.params(), field_.view()}; }
    void before_phase(std::vector<Particle>& ps, PhaseWindow w) {
      field_.update(ps, w, air_.params().steps_per_phase);
    }
    Observables observe(const PhaseSums& sums, PhaseWindow w, PhaseEvents events) {
      return air_.observe(sums, w, events);
    }

    const AirSim::HostState& air() const { return air_; }
    const air::SpaceChargeSetup& setup() const { return setup_->space_charge; }

   private:
    std::shared_ptr<const Setup> setup_;
    AirSim::HostState air_;
    air::HostSpaceCharge field_;
  };
  class DeviceState;  // sims/air/device_space_charge.cuh

  static Image picture(const std::vector<Particle>& ps);

  static Particle initial(uint64_t index, const Params& prm, DrawKey key) {
    Particle p{};
    static_cast<air::Particle&>(p) = AirSim::initial(index, prm, key);
    p.bx = p.x;
    p.by = p.y;
    p.bz = p.z;
    return p;
  }

  // air's step in the applied field plus the space charge's where the flight starts; a child is
  // born where its parent ionized, its birth point.
  SB_HD static Fate step(Particle& p, Particle& child, const Params& prm, StepDraw& draw) {
    double e[3];
    air::space_charge_at(prm.field, p.x, p.y, p.z, e);
    air::Fields f = prm.fields;
    f.accel = f.accel + air::kChargeOverMass * air::Vec3{e[0], e[1], e[2]};
    const Fate fate = step_in(p, child, prm, f, draw);
    if (fate == Fate::kSpawned) {
      child.bx = child.x;
      child.by = child.y;
      child.bz = child.z;
    }
    return fate;
  }
};

}  // namespace sb
