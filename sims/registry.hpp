// The sim registry: every sim, as a type list. Adding a sim is one folder plus one entry here
// (its #include and its name in AllSims; docs/design.md §9 walks through it).
#pragma once

#include "core/sim_list.hpp"
#include "sims/air/air_family.hpp"
#include "sims/ccp/ccp.hpp"
#include "sims/mvp/mvp.hpp"
#include "sims/pic/pic_family.hpp"
#include "sims/toy/toy.hpp"

namespace sb {

// An entry is a sim or a sim family (core/sim_list.hpp): pic is the family of its mock and its
// Poisson field, air of its applied fields and its space charge.
using AllSims = SimList<ToySim, MvpSim, PicFamily, AirFamily, CcpSim>;

}  // namespace sb
