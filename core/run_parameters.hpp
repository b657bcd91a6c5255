// The parameters every run has, whatever its sim and scheduler: how many particles it starts
// with, how many slots each rank may use, the seed of its draws, and how many ranks share it. Their
// values live in RunConfig's typed members (core/run_config.hpp), which every engine reads.
#pragma once

#include "core/declared_parameter.hpp"

namespace sb::every_run {

const DeclaredParameter& init_n();
const DeclaredParameter& capacity();
const DeclaredParameter& seed();
const DeclaredParameter& ranks();

// All four, in the order --help lists them.
DeclaredParameters parameters();

}  // namespace sb::every_run
