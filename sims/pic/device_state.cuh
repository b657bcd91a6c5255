// pic on the device: the tables uploaded once per run, and the grid work of each poisson step
// (count, acceleration per cell, acceleration to particles) as three kernels with their own
// block size, independent of the scheduler's.
#pragma once

#include <thrust/execution_policy.h>
#include <thrust/transform_reduce.h>

#include <optional>

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
// Counts the particles inside the grid's interior; a particle outside it is left to the count on a
// grid that holds it.
template <class P>
__global__ void count_cells(const P* ps, uint64_t n, LocalGrid g, uint32_t* counts) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int x = cell_of(ps[i].x), y = cell_of(ps[i].y), z = cell_of(ps[i].z);
  if (g.holds(CellBox::of(x, y, z))) atomicAdd(&counts[g.index(x, y, z)], 1u);
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

  void before_phase(Particle* ps, uint64_t n, PhaseWindow, cudaStream_t stream) {
    gather_all(*this, ps, n, stream);
  }

  // The counts of the occupied cells and their accelerations, gathered batch by batch: each
  // batch's box of occupied cells, and its counts on the last phase's grid. Only where the box
  // has left that grid's interior (or fills an eighth of it) are the particles gathered again, on
  // a grid around the new box with room to move. Any grid that holds every particle with a halo
  // gives the same accelerations wherever a particle reads (sims/pic/grid.hpp), so the grid chosen
  // does not change the run. Over several ranks, the box and the counts are every rank's
  // (docs/design.md §10).
  void begin_gather(cudaStream_t stream) {
    box_ = {};
    here_ = 0;
    if (grid_) {
      counts_.reserve(grid_->cells());
      SB_CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, grid_->cells() * sizeof(uint32_t), stream));
    }
  }

  void gather(const Particle* ps, uint64_t n, cudaStream_t stream) {
    if (n == 0) return;
    box_ =
        box_.merged(thrust::transform_reduce(thrust::cuda::par.on(stream), ps, ps + n,
                                             pic::CellBoxOf{}, pic::CellBox{}, pic::MergeBoxes{}));
    here_ += n;
    if (!grid_) return;
    pic::count_cells<Particle><<<blocks_for(n, pic::kGridBlock), pic::kGridBlock, 0, stream>>>(
        ps, n, *grid_, counts_.data());
    SB_CUDA_CHECK(cudaGetLastError());
  }

  bool end_gather(cudaStream_t stream) {
    ranks::Communicator& comm = ranks::world();
    ranks::bounds(comm, box_.lo, box_.hi, 3);
    if (box_.empty()) {  // no particle on any rank
      grid_.reset();
      return true;
    }
    const pic::LocalGrid fitted(box_.grown(kRoom));
    if (!grid_ || !grid_->holds(box_) || grid_->cells() > 8 * fitted.cells()) {
      grid_ = fitted;
      return false;
    }
    ranks::sum_on_device(comm, counts_.data(), grid_->cells(), stream);
    if (here_ == 0) return true;  // nothing on this rank reads the accelerations
    accel_.reserve(3 * grid_->cells());
    pic::accelerate_cells<Particle>
        <<<blocks_for(grid_->cells(), pic::kGridBlock), pic::kGridBlock, 0, stream>>>(
            *grid_, counts_.data(), pic::acceleration_constant(), accel_.data());
    SB_CUDA_CHECK(cudaGetLastError());
    return true;
  }

  // Each particle of a batch given its cell's acceleration.
  void on_batch(Particle* ps, uint64_t n, cudaStream_t stream) {
    if (n == 0 || !grid_) return;
    pic::accelerate_particles<Particle>
        <<<blocks_for(n, pic::kGridBlock), pic::kGridBlock, 0, stream>>>(ps, n, *grid_,
                                                                         accel_.data());
    SB_CUDA_CHECK(cudaGetLastError());
  }

 private:
  // Cells of room on every side of the box a new grid is made around: what the particles may move
  // in the phases after before the grid must move with them.
  static constexpr int kRoom = 8;

  DeviceBuffer<pic::Level> levels_;
  DeviceBuffer<uint32_t> counts_{"pic's grid counts"};
  DeviceBuffer<float> accel_{"pic's grid accelerations"};
  std::optional<pic::LocalGrid> grid_;  // the grid of the counts and accelerations
  pic::CellBox box_;                    // of the particles gathered, then of every rank's
  uint64_t here_ = 0;                   // particles gathered on this rank
};

}  // namespace sb
