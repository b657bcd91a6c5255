// air as users see it, the family in one place: one sim whose --space-charge and --precision
// choose, at run time, between variants compiled apart (core/sim_list.hpp), so that air's step
// without it carries no field code: air in the applied fields (AirSimIn, sims/air/air.hpp) in
// double (AirSim, the default), mixed and single precision (core/precision.hpp), and with its own
// space charge in double (AirSpaceChargeSim, sims/air/space_charge.hpp). Here: the variants,
// the parameters they read and the selector.
#pragma once

#include <cstddef>

#include "core/declared_parameter.hpp"
#include "core/precision.hpp"
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
  using Variants =
      SimList<AirSim, AirSpaceChargeSim, AirSimIn<precision::Mixed>, AirSimIn<precision::Single>>;

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
            &fields::field_solver(),
            &precision::parameter()};
  }

  // AirSpaceChargeSim's with --space-charge, else the applied fields' in the run's --precision;
  // UsageError for --grid or --field-solver without --space-charge, and for --precision other
  // than double with it.
  static size_t variant(const RunConfig& c);
};

}  // namespace sb
