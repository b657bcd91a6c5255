// pic's Poisson field variant (--field poisson; docs/physics.md, "pic with --field poisson"):
// the mock's sim (PicSim) with the field of the electrons' own charge, solved on a mesh at each
// poisson step (sims/pic/poisson_field.hpp), in place of the mock's accelerations. Its step is the
// mock's, after a field read where a step takes a particle into another cell of the mesh.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/draws.hpp"
#include "core/particle.hpp"
#include "core/run_config.hpp"
#include "sims/pic/pic.hpp"
#include "sims/pic/poisson_field.hpp"

// GCC 12 at -O3 vectorises the three components of the field read and the kicks after it in
// pairs (SLP), and then folds the x and y pair's rounding to float and back into nothing, so that
// the host's kick would take the unrounded term where the device's takes the float one. The
// host's step is compiled without SLP vectorisation (the device's is nvcc's).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define SB_NO_SLP_ON_HOST __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define SB_NO_SLP_ON_HOST
#endif

namespace sb {
namespace pic {

// The mock's Params (the level table) and the field.
struct PoissonParams : Params {
  FieldView field;
};

}  // namespace pic

// Name, description, parameters, phases, initial particles and picture are the mock's.
struct PicPoissonSim : PicSim {
  using Params = pic::PoissonParams;
  // The field's term and the cell it was read in stay live in the step (kStepRegisters):
  // dynamic-warp's Poisson points run faster at 80 registers than at its cap of 72
  // (docs/performance.md, "What each scheduler costs and why", has the times).
  static constexpr int kStepRegisters = 80;

  // The mock's tables and phases, and the field's mesh and solver, built once per run.
  struct Setup {
    explicit Setup(const RunConfig& c);
    PhasePlan phases() const { return tables->phases(); }

    std::shared_ptr<const PicSim::Setup> tables;
    pic::PoissonSetup poisson;
  };
  // The mock's tables, and the field solved on the host before each phase; on the device its
  // deposit streams (sims/pic/device_poisson_field.cuh).
  class HostState {
   public:
    static constexpr bool kStreamsPhaseWork = true;
    explicit HostState(std::shared_ptr<const Setup> setup);
    Params params() const { return {tables_.params(), field_.view()}; }
    void before_phase(std::vector<Particle>& ps, PhaseWindow) { field_.update(ps); }

    const PicSim::HostState& tables() const { return tables_; }
    const pic::PoissonSetup& setup() const { return setup_->poisson; }

   private:
    std::shared_ptr<const Setup> setup_;
    PicSim::HostState tables_;
    pic::HostPoissonField field_;
  };
  class DeviceState;  // sims/pic/device_poisson_field.cuh

  // A particle keeps the term it read while it stays in its cell, where this is the mock's step
  // bit for bit. In the step that takes it into another cell it reads the field where the step's
  // drift ends, and the second half of the leapfrog kick takes the new term: the mock's step
  // kicks twice with the particle's term, so with the new term, the velocity first shifted by it
  // less the old, it kicks with the old term (to the rounding of that shift), drifts, and kicks
  // with the new.
  SB_HD SB_NO_SLP_ON_HOST static Fate step(Particle& p, Particle& child, const Params& prm,
                                           StepDraw& draw) {
    const double kx = p.ax * pic::kHalfDt, ky = p.ay * pic::kHalfDt, kz = p.az * pic::kHalfDt;
    Particle to = p;  // where the mock's first half kick and drift take p, computed as it does
    to.x += (p.vx - kx) * pic::kDt;
    to.y += (p.vy - ky) * pic::kDt;
    to.z += (p.vz - kz) * pic::kDt;
    if (!pic::same_cell(prm.field, p, to)) {
      pic::read_field(to, prm.field);
      p.vx = p.vx - kx + to.ax * pic::kHalfDt;
      p.vy = p.vy - ky + to.ay * pic::kHalfDt;
      p.vz = p.vz - kz + to.az * pic::kHalfDt;
      p.ax = to.ax;
      p.ay = to.ay;
      p.az = to.az;
    }
    return PicSim::step(p, child, prm, draw);
  }
};

}  // namespace sb
