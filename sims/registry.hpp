// The sim registry: every sim, as a type list. Adding a sim is one folder plus one entry here
// (its #include and its name in AllSims; docs/design.md §9 walks through it).
#pragma once

#include "core/sim_interface.hpp"
#include "examples/walk_sim.hpp"
#include "sims/air/air.hpp"
#include "sims/mvp/mvp.hpp"
#include "sims/pic/pic.hpp"
#include "sims/toy/toy.hpp"

namespace sb {

// Listing a sim checks it against the sim interface (core/sim_interface.hpp).
template <class... Sims>
struct SimList {
  static_assert((check_sim<Sims>() && ...));

  template <class F>
  static void for_each(F&& f) {
    (f(static_cast<Sims*>(nullptr)), ...);
  }
};

using AllSims = SimList<ToySim, MvpSim, PicSim, AirSim>;

// The example sims of the tutorials (docs/design.md §9): every scheduler is built for them and the
// tests run them, but users do not see them (all_sims(), `schedbench list` and --sim know
// AllSims only).
using ExampleSims = SimList<WalkSim>;

}  // namespace sb
