// pic's --field poisson on the host (docs/physics.md, "Self-consistent fields"): at each poisson
// step the electrons are deposited (charge -e each) on the periodic mesh over pic's cube, whose
// mean is removed (a uniform neutralising background), Poisson's equation is solved by FFT, the
// field is the centred difference of the potential, and each particle reads it where it stands.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "fields/mesh.hpp"
#include "fields/poisson.hpp"
#include "sims/pic/pic.hpp"

namespace sb::pic {

class HostPoissonField {
 public:
  explicit HostPoissonField(const fields::Mesh& mesh);

  // The field of the particles `ps`, and each particle's acceleration term from it.
  void update(std::vector<Particle>& ps);
  FieldView view() const;

 private:
  fields::Mesh mesh_;
  std::unique_ptr<fields::PoissonSolver> solver_;
  // Left uninitialised until the first update, so that making one (a run's check, a GPU run
  // that solves on the device) costs no memory traffic.
  std::unique_ptr<int64_t[]> charge_;
  std::unique_ptr<double[]> rho_, phi_, ex_, ey_, ez_;
};

}  // namespace sb::pic
