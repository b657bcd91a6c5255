// A sim's self-consistent field as a run asks for it (fields/mesh_field.hpp): --grid and
// --field-solver, declared once here for every sim that has such a field (pic's --field poisson,
// air's --space-charge), so that each key means one thing everywhere.
#pragma once

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"

namespace sb::fields {

// --grid: mesh nodes per side, a power of two; optional, since each sim has its own default and
// may take fewer than the most any sim takes (mesh_nodes).
const DeclaredParameter& grid();
// --field-solver: where a GPU run solves Poisson's equation, device (cuFFT, the default) or host
// (FFTW, as the CPU engines do, so that the run gives cpu-serial's digest).
const DeclaredParameter& field_solver();

// The nodes per side of the run's mesh: --grid, or `fallback` where it is not given. UsageError
// naming the value and the powers of two from 16 to `most` where it is not one of those.
int mesh_nodes(const RunConfig& c, int fallback, int most);

// Whether a GPU run solves on the device (--field-solver).
bool solve_on_device(const RunConfig& c);

// UsageError where --grid or --field-solver is given to a run whose sim has no field: `needs` names
// what turns the field on ("--field poisson"), `instead` what the run has ("the field is mock").
void refuse_mesh_options(const RunConfig& c, const char* needs, const char* instead);

}  // namespace sb::fields
