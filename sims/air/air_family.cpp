#include "sims/air/air_family.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace sb {
namespace air {

const DeclaredParameter& space_charge() {
  static const DeclaredParameter p = recorded_when_given(switch_parameter(
      "space_charge", "--space-charge",
      "air: the electrons' and the ions' own field (deposition on a mesh around the swarm, FFT "
      "Poisson solve in free space at every phase boundary) added to the applied one",
      "space charge"));
  return p;
}

}  // namespace air

size_t AirFamily::variant(const RunConfig& c) {
  if (air::space_charge().on(c)) return Variants::index_of<AirSpaceChargeSim>();
  for (const DeclaredParameter* p : {&fields::grid(), &fields::field_solver()}) {
    if (p->given(c)) {
      throw UsageError(fmt::format("{}: {} applies with --space-charge only; space charge is off",
                                   p->flag, c.declared_values.at(p->key)));
    }
  }
  return Variants::index_of<AirSim>();
}

}  // namespace sb
