// The device halves of the sims that have one (a DeviceState: tables uploaded, grid work between
// phases; schedulers/device/sim_device_state.cuh), each defined in a CUDA header of its sim's
// folder. Only the GPU driver (schedulers/device/driver.cu) and the yardstick (schedulers/bound.cu)
// build a DeviceState, and persistent-cycle (schedulers/persistent_cycle.cu) runs the sims'
// StepGrid in its kernel, so only they include this list: other schedulers' kernels read a sim's
// Params alone, and compiling every sim's grid kernels and their Thrust and CUB calls into each
// scheduler's file would only cost build time. A sim whose header declares `class DeviceState;`
// adds its CUDA header here (docs/design.md §9); one missing is a build error naming the
// incomplete DeviceState.
#pragma once

#include "sims/air/device_space_charge.cuh"
#include "sims/air/device_state.cuh"
#include "sims/ccp/device_state.cuh"
#include "sims/pic/device_poisson_field.cuh"
#include "sims/pic/device_state.cuh"
