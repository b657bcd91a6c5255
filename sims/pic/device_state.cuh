// pic on the device: the tables uploaded once per run, and the grid work of each poisson step
// (count, acceleration per cell, acceleration to particles) as three kernels with their own
// block size, independent of the scheduler's.
#pragma once

#include <thrust/execution_policy.h>
#include <thrust/transform_reduce.h>

#include "core/cuda_check.hpp"
#include "core/grid_shape.hpp"
#include "ranks/device_reduce.hpp"
#include "ranks/reduce.hpp"
#include "sims/pic/pic.hpp"

namespace sb {
namespace pic {

inline constexpr uint32_t kGridBlock = 256;

struct CellBoxOf {
  template <class P>
  __device__ CellBox operator()(const P& p) const {
    return CellBox::of(cell_of(p.x), cell_of(p.y), cell_of(p.z));
  }
};

struct MergeBoxes {
  __device__ CellBox operator()(const CellBox& a, const CellBox& b) const { return a.merged(b); }
};

// Kernels are templates so that every CUDA unit that includes this header may instantiate them.
template <class P>
__global__ void count_cells(const P* ps, uint64_t n, LocalGrid g, uint32_t* counts) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[g.index(cell_of(ps[i].x), cell_of(ps[i].y), cell_of(ps[i].z))], 1u);
}

template <class P>
__global__ void accelerate_cells(LocalGrid g, const uint32_t* counts, double k, float* accel) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  int x, y, z;
  if (i < g.cells() && g.interior(i, x, y, z))
    cell_acceleration(g, counts, k, x, y, z, &accel[3 * i]);
}

template <class P>
__global__ void accelerate_particles(P* ps, uint64_t n, LocalGrid g, const float* accel) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  P& p = ps[i];
  const uint64_t c = g.index(cell_of(p.x), cell_of(p.y), cell_of(p.z));
  p.ax = accel[3 * c];
  p.ay = accel[3 * c + 1];
  p.az = accel[3 * c + 2];
}

}  // namespace pic

template <class Precision>
class PicSimIn<Precision>::DeviceState {
 public:
  DeviceState(const HostState& host, cudaStream_t stream)
      : levels_(host.levels().size(), "pic's cross-section levels") {
    levels_.copy_from_host(host.levels());
    (void)stream;
  }

  Params params() const { return {levels_.data()}; }

  // Over several ranks, the box and the counts are every rank's (docs/design.md §10).
  void before_phase(Particle* ps, uint64_t n, PhaseWindow, cudaStream_t stream) {
    ranks::Communicator& comm = ranks::world();
    pic::CellBox box =
        n == 0 ? pic::CellBox{}
               : thrust::transform_reduce(thrust::cuda::par.on(stream), ps, ps + n,
                                          pic::CellBoxOf{}, pic::CellBox{}, pic::MergeBoxes{});
    ranks::bounds(comm, box.lo, box.hi, 3);
    if (box.empty()) return;  // no particle on any rank
    const pic::LocalGrid grid(box);
    counts_.reserve(grid.cells());
    accel_.reserve(3 * grid.cells());
    SB_CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, grid.cells() * sizeof(uint32_t), stream));
    const uint32_t by_particle = blocks_for(n, pic::kGridBlock);
    const uint32_t by_cell = blocks_for(grid.cells(), pic::kGridBlock);
    if (n > 0) {
      pic::count_cells<Particle>
          <<<by_particle, pic::kGridBlock, 0, stream>>>(ps, n, grid, counts_.data());
      SB_CUDA_CHECK(cudaGetLastError());
    }
    ranks::sum_on_device(comm, counts_.data(), grid.cells(), stream);
    if (n == 0) return;
    pic::accelerate_cells<Particle><<<by_cell, pic::kGridBlock, 0, stream>>>(
        grid, counts_.data(), pic::acceleration_constant(), accel_.data());
    SB_CUDA_CHECK(cudaGetLastError());
    pic::accelerate_particles<Particle>
        <<<by_particle, pic::kGridBlock, 0, stream>>>(ps, n, grid, accel_.data());
    SB_CUDA_CHECK(cudaGetLastError());
  }

 private:
  DeviceBuffer<pic::Level> levels_;
  DeviceBuffer<uint32_t> counts_{"pic's grid counts"};
  DeviceBuffer<float> accel_{"pic's grid accelerations"};
};

}  // namespace sb
