#include "core/run_parameters.hpp"

#include <cstdint>

namespace sb::every_run {

const DeclaredParameter& init_n() {
  static const DeclaredParameter p =
      stored_in(required(whole_parameter("init_n", "--init-n", "initial number of particles",
                                         "initial particles", 1, kMaxCount, std::nullopt)),
                &RunConfig::init_n);
  return p;
}

const DeclaredParameter& capacity() {
  static const DeclaredParameter p = stored_in(
      with_role(whole_parameter("capacity", "--capacity",
                                "most particle slots the run may use (default 1e8)",
                                "particle slots (capacity)", 1, kMaxCount, RunConfig{}.capacity),
                ParameterRole::kBookkeeping),
      &RunConfig::capacity);
  return p;
}

const DeclaredParameter& seed() {
  static const DeclaredParameter p = stored_in(
      whole_parameter(
          "seed", "--seed",
          "run seed: the key of every random draw, any whole number from 0 to 2^64-1 (default 1)",
          "run seed", 0, UINT64_MAX, RunConfig{}.seed),
      &RunConfig::seed);
  return p;
}

DeclaredParameters parameters() {
  return {&init_n(), &capacity(), &seed()};
}

}  // namespace sb::every_run
