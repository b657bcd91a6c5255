// Must NOT compile (ctest compile_fail_*, tests/CMakeLists.txt): a sim that lacks the member the
// test removes with a -D, listed in a SimList as sims/registry.hpp lists sims. The error must
// name that member (core/sim_interface.hpp).
#include <cstdint>

#include "sims/registry.hpp"

namespace {

struct IncompleteSim {
  struct Particle {
    uint32_t x;
#ifndef SB_OMIT_TAG
    sb::ParticleTag tag;
#endif
    template <class F>
    void visit(F&& f) const {
      f("x", x);
    }
  };
  struct Params {};

  static constexpr const char* kName = "incomplete";
  static constexpr const char* kDescription = "a sim that lacks a member";
  static sb::DeclaredParameters parameters() {
    return {&sb::steps_parameter()};
  }

  static Params params(const sb::RunConfig&) {
    return {};
  }
  static sb::PhasePlan phases(const sb::RunConfig& c) {
    return {1, static_cast<uint32_t>(sb::steps_parameter().whole(c))};
  }
  static Particle initial(uint64_t, const Params&, sb::DrawKey) {
    return {};
  }
#ifndef SB_OMIT_STEP
  static sb::Fate step(Particle&, Particle&, const Params&, sb::StepDraw&) {
    return sb::Fate::kAlive;
  }
#endif
  static bool simulates_children(const Params&) {
    return true;
  }
};

}  // namespace

void list_it() {
  sb::SimList<IncompleteSim>::for_each([](auto*) {});
}
