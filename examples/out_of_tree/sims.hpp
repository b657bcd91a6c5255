// The sims this project builds schedbench's schedulers and command line for (SB_SIMS_HEADER,
// schedbench_add_executable): its own sim slab, and the tutorial's example sim walk.
#pragma once

#include "core/sim_list.hpp"
#include "examples/walk_sim.hpp"
#include "slab.hpp"

namespace sb {

using ProjectSims = SimList<SlabSim, WalkSim>;

}  // namespace sb
