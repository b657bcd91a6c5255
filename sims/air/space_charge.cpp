#include "sims/air/space_charge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "core/memory.hpp"
#include "fields/mesh_nodes.hpp"
#include "ranks/reduce.hpp"

namespace sb {
namespace air {

fields::Mesh mesh_around(const Box& box, int n) {
  double extent = 0;
  for (int a = 0; a < 3; ++a)
    extent = std::max(extent, box.hi[a] - box.lo[a]);
  const double side = std::max(kMeshMargin * extent, kMinMeshSide);
  fields::Mesh m;
  m.n = n;
  m.h = side / (n - 1);
  for (int a = 0; a < 3; ++a)
    m.origin[a] = 0.5 * (box.lo[a] + box.hi[a]) - 0.5 * side;
  return m;
}

fields::Mesh unit_mesh(int n) {
  fields::Mesh m;
  m.n = n;
  m.h = 1;
  return m;
}

SpaceChargeSetup space_charge_setup(const RunConfig& c) {
  return {fields::mesh_nodes(c, kGridNodes, kMostGridNodes), fields::solve_on_device(c)};
}

std::string field_what(const SpaceChargeSetup& setup) {
  return fmt::format("--grid {} (the space charge)", setup.nodes);
}

Box over_ranks(Box box) {
  ranks::bounds(ranks::world(), box.lo, box.hi, 3);
  return box;
}

HostSpaceCharge::HostSpaceCharge(int nodes)
    : mesh_(std::make_unique<fields::Mesh>(unit_mesh(nodes))),
      field_(*mesh_, fields::Boundary::kOpen) {}

void HostSpaceCharge::update(const std::vector<ChargedParticle>& ps, PhaseWindow w,
                             uint32_t steps_per_phase) {
  const auto add_ion = [this](std::vector<double>& ions, double x, double y, double z) {
    make_room(ions, ions.size() + 3, SIZE_MAX, "the space charge's ions");
    ions.insert(ions.end(), {x, y, z});
    ion_box_.add(x, y, z);
  };
  Box electrons;
  for (const ChargedParticle& p : ps) {
    electrons.add(p.x, p.y, p.z);
    if (ion_pending(p, w, steps_per_phase)) add_ion(ions_, p.bx, p.by, p.bz);
  }
  const fields::Mesh mesh = mesh_around(over_ranks(Box::merged(electrons, ion_box_)), mesh_->n);
  *mesh_ = mesh;
  struct Position {
    double x, y, z;
  };
  const auto deposit = [this](const std::vector<double>& points, int sign) {
    const auto* at = reinterpret_cast<const Position*>(points.data());
    field_.deposit(
        points.size() / 3, [at](uint64_t i) -> const Position& { return at[i]; }, sign);
  };
  field_.begin(mesh);
  field_.deposit(
      ps.size(), [&ps](uint64_t i) -> const ChargedParticle& { return ps[i]; }, -1);
  deposit(ions_, +1);
  deposit(negative_ions_, -1);
  field_.solve(unit_mesh_charge(mesh.h));
  // The attached electrons deposited as electrons above; from the next phase on, as ions.
  for (const ChargedParticle& p : ps) {
    if (negative_ion_pending(p)) add_ion(negative_ions_, p.x, p.y, p.z);
  }
}

}  // namespace air

AirSpaceChargeSim::Setup::Setup(const RunConfig& c)
    : air_setup(std::make_shared<const AirSim::Setup>(c)),
      space_charge(air::space_charge_setup(c)) {}

AirSpaceChargeSim::HostState::HostState(std::shared_ptr<const Setup> setup)
    : setup_(std::move(setup)), air_(setup_->air_setup), field_(setup_->space_charge.nodes) {}

Image AirSpaceChargeSim::picture(const std::vector<Particle>& ps) {
  return AirSim::picture(std::vector<air::Particle>(ps.begin(), ps.end()));
}

}  // namespace sb
