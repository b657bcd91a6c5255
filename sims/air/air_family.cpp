#include "sims/air/air_family.hpp"

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
  if (air::space_charge().on(c)) {
    precision::refuse_reduced(c, "air's space charge is deposited, solved and read in double");
    return Variants::index_of<AirSpaceChargeSim>();
  }
  fields::refuse_mesh_options(c, "--space-charge", "space charge is off");
  return precision::variant_of<Variants, AirSimIn>(c);
}

}  // namespace sb
