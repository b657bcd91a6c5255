// pic's --field poisson (docs/physics.md, "pic with --field poisson"): at each poisson step the
// electrons are deposited (charge -e each) on the periodic mesh over pic's cube, whose mean is
// removed (a uniform neutralising background), Poisson's equation is solved by FFT, the field is
// the centred difference of the potential, and each particle reads it where it stands. Here: what
// host and device share, and the host's field (the device's is sims/pic/device_poisson_field.cuh).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/run_config.hpp"
#include "fields/field.hpp"
#include "fields/mesh.hpp"
#include "fields/mesh_field.hpp"
#include "fields/poisson.hpp"
#include "sims/pic/pic.hpp"

namespace sb::pic {

// The field at the mesh nodes (fields/), in V/m: a particle reads it where it stands at each
// poisson step and again whenever a step takes it into another cell (seed 003 §7.1.3).
struct FieldView {
  const double* ex = nullptr;
  const double* ey = nullptr;
  const double* ez = nullptr;
  fields::Mesh mesh;
};

inline constexpr double kChargeOverMass = kElementaryCharge / kElectronMass;  // e / m_e, C/kg

// The acceleration term a particle stores (ax, ay, az) from the field gathered at its position:
// e/m E, which the step subtracts (an electron's charge is -e), rounded to float as the mock's.
SB_HD inline void read_field(Particle& p, const FieldView& f) {
  double e[3];
  fields::gather(f.mesh, fields::Boundary::kPeriodic, f.ex, f.ey, f.ez, p.x, p.y, p.z, e);
  p.ax = static_cast<float>(kChargeOverMass * e[0]);
  p.ay = static_cast<float>(kChargeOverMass * e[1]);
  p.az = static_cast<float>(kChargeOverMass * e[2]);
}

// Whether two positions lie in one cell of the field's mesh.
SB_HD inline bool same_cell(const FieldView& f, const Particle& a, const Particle& b) {
  const fields::Stencil s = fields::stencil_of(f.mesh, a.x, a.y, a.z);
  const fields::Stencil t = fields::stencil_of(f.mesh, b.x, b.y, b.z);
  return s.lo[0] == t.lo[0] && s.lo[1] == t.lo[1] && s.lo[2] == t.lo[2];
}

// The mesh over pic's cube and where a GPU run solves: from --grid (UsageError where it is not a
// power of two) and --field-solver.
struct PoissonSetup {
  fields::Mesh mesh;
  bool solve_on_device;
};
PoissonSetup poisson_setup(const RunConfig& c);

// What a field too large for the device names (fields::require_field_fits): the option that
// sized it.
std::string field_what(const PoissonSetup& setup);

// The field on the host, solved by FFTW.
class HostPoissonField {
 public:
  explicit HostPoissonField(const fields::Mesh& mesh);

  // The field of the particles `ps`, and each particle's acceleration term from it.
  void update(std::vector<Particle>& ps);
  FieldView view() const;

 private:
  fields::HostMeshField field_;
};

}  // namespace sb::pic
