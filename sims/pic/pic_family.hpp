// pic as users see it: one sim whose --field chooses, at run time, between two variants compiled
// apart (core/sim_list.hpp), so that the mock's step carries no field code: the mock field of
// seed 003 (PicSim, the default) and the Poisson field (PicPoissonSim).
#pragma once

#include <cstddef>

#include "core/run_config.hpp"
#include "core/sim_list.hpp"
#include "sims/pic/pic.hpp"
#include "sims/pic/pic_poisson.hpp"

namespace sb {

struct PicFamily {
  using Variants = SimList<PicSim, PicPoissonSim>;

  static constexpr const char* kName = PicSim::kName;
  static constexpr const char* kDescription = PicSim::kDescription;
  static DeclaredParameters parameters() { return PicSim::parameters(); }

  // PicPoissonSim's with --field poisson, else PicSim's; UsageError for --grid or
  // --field-solver without --field poisson (pic_poisson.cpp).
  static size_t variant(const RunConfig& c);
};

}  // namespace sb
