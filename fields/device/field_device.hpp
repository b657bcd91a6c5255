// The host half's grid passes on the device (docs/physics.md, "Self-consistent fields"): charge
// density, the centred-difference field and the gather at particles, each a kernel over the
// host's SB_HD function (fields/deposit.hpp, fields/field.hpp), so bit for bit the host's
// results. All pointers are device pointers; the work is enqueued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "fields/device/positions.hpp"
#include "fields/mesh.hpp"

namespace sb::fields {

// rho[i] = density_of(charge[i], charge_per_particle, mesh.h) at every node (C/m^3).
void device_charge_density(const Mesh& mesh, const int64_t* charge, double charge_per_particle,
                           double* rho, cudaStream_t stream);

// E = -grad phi at every node, as electric_field does; mesh.n at least 3.
void device_electric_field(const Mesh& mesh, Boundary boundary, const double* phi, double* ex,
                           double* ey, double* ez, cudaStream_t stream);

// e[3 i .. 3 i + 2] = the field gathered at particle i (gather), for i < count.
void device_gather(const Mesh& mesh, Boundary boundary, const double* ex, const double* ey,
                   const double* ez, DevicePositions positions, uint64_t count, double* e,
                   cudaStream_t stream);

}  // namespace sb::fields
