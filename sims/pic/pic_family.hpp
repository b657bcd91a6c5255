// pic as users see it, the family in one place: one sim whose --field and --precision choose, at
// run time, between variants compiled apart (core/sim_list.hpp), so that the mock's step carries
// no field code: the mock field of seed 003 (PicSimIn, sims/pic/pic.hpp) in double (PicSim, the
// default), mixed and single precision (core/precision.hpp), and the Poisson field in double
// (PicPoissonSim, sims/pic/pic_poisson.hpp). Here: the variants, the parameters they read
// and the selector.
#pragma once

#include <cstddef>

#include "core/declared_parameter.hpp"
#include "core/precision.hpp"
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
  using Variants =
      SimList<PicSim, PicPoissonSim, PicSimIn<precision::Mixed>, PicSimIn<precision::Single>>;

  static constexpr const char* kName = PicSim::kName;
  static constexpr const char* kDescription = PicSim::kDescription;
  static DeclaredParameters parameters() {
    return {&pic::poisson_steps(),    &pic::mobility_steps(), &pic::cross_section(),
            &pic::collision_chance(), &pic::field(),          &fields::grid(),
            &fields::field_solver(),  &precision::parameter()};
  }

  // PicPoissonSim's with --field poisson, else the mock's in the run's --precision; UsageError for
  // --grid or --field-solver without --field poisson, and for --precision other than double with
  // it.
  static size_t variant(const RunConfig& c);
};

}  // namespace sb
