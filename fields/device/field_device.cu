#include "fields/device/field_device.hpp"

#include <stdexcept>

#include "core/cuda_check.hpp"
#include "fields/deposit.hpp"
#include "fields/device/launch.cuh"
#include "fields/field.hpp"

namespace sb::fields {
namespace {

__global__ void density(uint64_t nodes, const int64_t* charge, double q, double h, double* rho) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < nodes) rho[t] = density_of(charge[t], q, h);
}

__global__ void field(Mesh m, Boundary b, const double* phi, double* ex, double* ey, double* ez) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= m.nodes()) return;
  const int n = m.n;
  const uint64_t row = n, plane = row * n;
  const auto i = static_cast<int>(t % row), j = static_cast<int>(t / row % row),
             k = static_cast<int>(t / plane);
  ex[t] = minus_derivative(phi, t, 1, i, n, b, m.h);
  ey[t] = minus_derivative(phi, t, row, j, n, b, m.h);
  ez[t] = minus_derivative(phi, t, plane, k, n, b, m.h);
}

__global__ void gather_at(Mesh m, Boundary b, const double* ex, const double* ey, const double* ez,
                          DevicePositions p, uint64_t count, double* e) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const double* at = p[t];
  double f[3];
  gather(m, b, ex, ey, ez, at[0], at[1], at[2], f);
  for (int a = 0; a < 3; ++a)
    e[3 * t + a] = f[a];
}

}  // namespace

void device_charge_density(const Mesh& mesh, const int64_t* charge, double charge_per_particle,
                           double* rho, cudaStream_t stream) {
  density<<<blocks_for(mesh.nodes()), kBlock, 0, stream>>>(mesh.nodes(), charge,
                                                           charge_per_particle, mesh.h, rho);
  SB_CUDA_CHECK(cudaGetLastError());
}

void device_electric_field(const Mesh& mesh, Boundary boundary, const double* phi, double* ex,
                           double* ey, double* ez, cudaStream_t stream) {
  if (mesh.n < 3) throw std::invalid_argument("the field needs at least 3 nodes per axis");
  field<<<blocks_for(mesh.nodes()), kBlock, 0, stream>>>(mesh, boundary, phi, ex, ey, ez);
  SB_CUDA_CHECK(cudaGetLastError());
}

void device_gather(const Mesh& mesh, Boundary boundary, const double* ex, const double* ey,
                   const double* ez, DevicePositions positions, uint64_t count, double* e,
                   cudaStream_t stream) {
  if (count == 0) return;
  gather_at<<<blocks_for(count), kBlock, 0, stream>>>(mesh, boundary, ex, ey, ez, positions, count,
                                                      e);
  SB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace sb::fields
