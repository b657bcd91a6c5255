// pic as users see it, the family in one place: one sim whose --field chooses, at run time,
// between two variants compiled apart (core/sim_list.hpp), so that the mock's step carries no
// field code: the mock field of seed 003 (PicSim, the default, sims/pic/pic.hpp) and the Poisson
// field (PicPoissonSim, sims/pic/pic_poisson.hpp). Here: the variants, the parameters they read
// and the selector.
#pragma once

#include <cstddef>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"
#include "core/sim_list.hpp"
#include "fields/mesh_nodes.hpp"
#include "sims/pic/pic.hpp"
#include "sims/pic/pic_poisson.hpp"

namespace sb {
namespace pic {

const DeclaredParameter& field();  // mock (seed 003's) or poisson: the variant

}  // namespace pic

struct PicFamily {
  using Variants = SimList<PicSim, PicPoissonSim>;

  static constexpr const char* kName = PicSim::kName;
  static constexpr const char* kDescription = PicSim::kDescription;
  static DeclaredParameters parameters() {
    return {&pic::poisson_steps(),    &pic::mobility_steps(), &pic::cross_section(),
            &pic::collision_chance(), &pic::field(),          &fields::grid(),
            &fields::field_solver()};
  }

  // PicPoissonSim's with --field poisson, else PicSim's; UsageError for --grid or
  // --field-solver without --field poisson.
  static size_t variant(const RunConfig& c);
};

}  // namespace sb
