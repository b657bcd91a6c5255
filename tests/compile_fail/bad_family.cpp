// Must NOT compile (ctest compile_fail_*, tests/CMakeLists.txt): a sim family (core/sim_list.hpp)
// with the defect the test names by a -D, listed in a SimList as sims/registry.hpp lists sims.
// The error must name what the family lacks.
#include <cstddef>

#include "examples/walk_sim.hpp"
#include "sims/registry.hpp"

namespace {

struct WalkFamily {
  using Variants = sb::SimList<sb::WalkSim>;

#ifdef SB_OTHER_NAME
  static constexpr const char* kName = "walks";
#else
  static constexpr const char* kName = sb::WalkSim::kName;
#endif
  static constexpr const char* kDescription = sb::WalkSim::kDescription;
  static sb::DeclaredParameters parameters() {
    return sb::WalkSim::parameters();
  }

#ifndef SB_OMIT_VARIANT
  static size_t variant(const sb::RunConfig&) {
    return 0;
  }
#endif
};

}  // namespace

void list_it() {
  sb::SimList<WalkFamily>::for_each([](auto*) {});
}
