// The sim registry: every sim, as a type list. Adding a sim is one folder plus one entry here.
#pragma once

#include "sims/air/air.hpp"
#include "sims/mvp/mvp.hpp"
#include "sims/pic/pic.hpp"
#include "sims/toy/toy.hpp"

namespace sb {

template <class... Sims>
struct SimList {
  template <class F>
  static void for_each(F&& f) {
    (f(static_cast<Sims*>(nullptr)), ...);
  }
};

using AllSims = SimList<ToySim, MvpSim, PicSim, AirSim>;

}  // namespace sb
