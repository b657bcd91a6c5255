// A sim's --grid, as the field module's FFT solves take it: a power of two of nodes per axis.
#pragma once

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"

namespace sb::fields {

// The nodes per axis `grid` gives (a whole parameter, its range checked by the parameter itself):
// UsageError naming the value and the powers of two of that range where it is not one.
int power_of_two_nodes(const DeclaredParameter& grid, const RunConfig& c);

}  // namespace sb::fields
