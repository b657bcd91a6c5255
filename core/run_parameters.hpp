// The parameters every run has, whatever its sim and scheduler: how many particles it starts
// with, how many slots it may use, and the seed of its draws. Their values live in RunConfig's
// typed members (core/run_config.hpp), which every engine reads.
#pragma once

#include "core/declared_parameter.hpp"

namespace sb::every_run {

const DeclaredParameter& init_n();
const DeclaredParameter& capacity();
const DeclaredParameter& seed();

// All three, in the order --help lists them.
DeclaredParameters parameters();

}  // namespace sb::every_run
