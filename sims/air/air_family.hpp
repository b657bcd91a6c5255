// air as users see it: one sim whose --space-charge chooses, at run time, between two variants
// compiled apart (core/sim_list.hpp), so that air's step without it carries no field code: air in
// the applied fields (AirSim, the default) and with its own space charge (AirSpaceChargeSim).
#pragma once

#include <cstddef>

#include "core/run_config.hpp"
#include "core/sim_list.hpp"
#include "sims/air/air.hpp"
#include "sims/air/space_charge.hpp"

namespace sb {

struct AirFamily {
  using Variants = SimList<AirSim, AirSpaceChargeSim>;

  static constexpr const char* kName = AirSim::kName;
  static constexpr const char* kDescription = AirSim::kDescription;
  static DeclaredParameters parameters() { return AirSim::parameters(); }

  // AirSpaceChargeSim's with --space-charge, else AirSim's; UsageError for --grid or
  // --field-solver without --space-charge (space_charge.cpp).
  static size_t variant(const RunConfig& c);
};

}  // namespace sb
