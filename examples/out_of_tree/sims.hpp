// The sims this project builds schedbench's schedulers for (SB_SIMS_HEADER,
// schedbench_add_schedulers): the example sim walk alone.
#pragma once

#include "core/sim_list.hpp"
#include "examples/walk_sim.hpp"

namespace sb {

using ProjectSims = SimList<WalkSim>;

}  // namespace sb
