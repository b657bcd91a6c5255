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
                                "most particle slots each rank may use (default 1e8)",
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

// The most ranks a run may take: far above any node count a sweep would launch, low enough that
// every per-rank table stays small.
constexpr uint64_t kMostRanks = 4096;

const DeclaredParameter& ranks() {
  static const DeclaredParameter p = stored_in(
      whole_parameter("ranks", "--ranks",
                      "ranks of the run, one GPU or CPU engine each (default: those the MPI "
                      "launcher started, else 1); a sweep launches a point of several with its "
                      "--launcher",
                      "ranks", 1, kMostRanks, RunConfig{}.ranks),
      &RunConfig::ranks);
  return p;
}

DeclaredParameters parameters() {
  return {&init_n(), &capacity(), &seed(), &ranks()};
}

}  // namespace sb::every_run
