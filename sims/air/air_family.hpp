// air as users see it, the family in one place: one sim whose --space-charge chooses, at run
// time, between two variants compiled apart (core/sim_list.hpp), so that air's step without it
// carries no field code: air in the applied fields (AirSim, the default, sims/air/air.hpp) and
// with its own space charge (AirSpaceChargeSim, sims/air/space_charge.hpp). Here: the variants,
// the parameters they read and the selector.
#pragma once

#include <cstddef>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"
#include "core/sim_list.hpp"
#include "fields/mesh_nodes.hpp"
#include "sims/air/air.hpp"
#include "sims/air/space_charge.hpp"

namespace sb {
namespace air {

const DeclaredParameter& space_charge();  // the variant: the electrons' and ions' own field

}  // namespace air

struct AirFamily {
  using Variants = SimList<AirSim, AirSpaceChargeSim>;

  static constexpr const char* kName = AirSim::kName;
  static constexpr const char* kDescription = AirSim::kDescription;
  static DeclaredParameters parameters() {
    return {&air::gas(),
            &air::pressure(),
            &air::temperature(),
            &air::electric_field(),
            &air::reduced_field(),
            &air::magnetic_field(),
            &air::field_angle(),
            &air::thermal_gas(),
            &air::cross_section(),
            &air::phases(),
            &air::phase_time(),
            &air::extrapolate(),
            &air::max_energy(),
            &air::init_radius(),
            &air::ionization_sharing(),
            &air::three_body_density(),
            &air::space_charge(),
            &fields::grid(),
            &fields::field_solver()};
  }

  // AirSpaceChargeSim's with --space-charge, else AirSim's; UsageError for --grid or
  // --field-solver without --space-charge.
  static size_t variant(const RunConfig& c);
};

}  // namespace sb
