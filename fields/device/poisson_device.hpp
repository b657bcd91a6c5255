// The FFT Poisson solve on the device with cuFFT (docs/physics.md, "Self-consistent fields"):
// the host solver's maths (fields/poisson.hpp, fields/green.hpp) with cuFFT's double-precision
// transforms in place of FFTW's. Plans, buffers and the open boundary's transformed Green's
// function are made once, when the solver is made.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "fields/mesh.hpp"
#include "fields/poisson.hpp"

namespace sb::fields {

// The device memory a device solver of this mesh and boundary takes: its buffers and cuFFT's
// work area (cuFFT's estimate, which is an upper bound). Compare it with the device's free
// memory before the run (core/cuda_check.hpp, device_memory()).
uint64_t solver_bytes(const Mesh& mesh, Boundary boundary);

// A solver whose solve(rho, phi) takes DEVICE pointers to mesh.nodes() doubles each (rho in
// C/m^3, phi in V) and enqueues the solve on `stream`: synchronise the stream before reading phi
// elsewhere. Throws AllocationError where the device lacks the memory.
std::unique_ptr<PoissonSolver> make_device_solver(const Mesh& mesh, Boundary boundary,
                                                  cudaStream_t stream = nullptr);

}  // namespace sb::fields
