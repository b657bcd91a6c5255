// A sim's self-consistent field on the device (fields/mesh_field.hpp is the host's, and says what
// the solver's and the placed mesh are): deposition with atomics in fixed point, the density, the
// solve (RunSolver: cuFFT, or the host's FFTW so that a run gives cpu-serial's digest) and the
// field, enqueued on the run's stream.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>

#include "core/cuda_check.hpp"
#include "fields/device/deposit_device.hpp"
#include "fields/device/positions.hpp"
#include "fields/device/run_solver.hpp"
#include "fields/mesh.hpp"
#include "fields/mesh_field.hpp"

namespace sb::fields {

class DeviceMeshField {
 public:
  // `what` names the option that sized the mesh in the error of a field that does not fit the
  // device's free memory (require_field_fits, checked before anything is allocated); `owner`
  // begins the names of its buffers ("the space charge's"). The field reads zero until the first
  // solve: what a kernel that runs the step without the phase work (bound) reads.
  DeviceMeshField(const Mesh& solver_mesh, Boundary boundary, bool solve_on_device,
                  const std::string& what, const std::string& owner, cudaStream_t stream);
  DeviceMeshField(const DeviceMeshField&) = delete;  // its buffers point at names_
  DeviceMeshField& operator=(const DeviceMeshField&) = delete;

  // Starts an update on `placed` (the solver mesh's node count): the charge emptied.
  void begin(const Mesh& placed, cudaStream_t stream);
  // Adds sign * the charge units of `count` points, at least one.
  void deposit(DevicePositions positions, uint64_t count, int sign, cudaStream_t stream);
  // The density of what was deposited, each unit of charge `unit_charge` on the solver's mesh;
  // the potential; the field on the placed mesh.
  void solve(double unit_charge, cudaStream_t stream);

  const Mesh& placed() const { return placed_; }
  const double* ex() const { return ex_.data(); }
  const double* ey() const { return ey_.data(); }
  const double* ez() const { return ez_.data(); }

 private:
  static Mesh fitting(const Mesh& mesh, Boundary boundary, bool solve_on_device,
                      const std::string& what);

  Mesh solver_mesh_, placed_;
  Boundary boundary_;
  std::array<std::string, kFieldArrays>
      names_;  // the buffers' (DeviceBuffer keeps a pointer to its name)
  DeviceBuffer<int64_t> charge_;
  DeviceBuffer<double> rho_, phi_, ex_, ey_, ez_;
  DeviceDeposit deposit_;
  RunSolver solver_;
};

}  // namespace sb::fields
