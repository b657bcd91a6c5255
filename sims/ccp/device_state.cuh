// ccp on the device (the host's is sims/ccp/ccp.cpp): the cross sections uploaded once per run,
// and each step's grid work as two kernels on the run's stream: the deposit of both species on
// the nodes (integer weights, summed in shared memory and then added to the device's nodes, so
// that no order of additions shows), and the field's solve by one block (sims/ccp/field.hpp, the
// host's code), which also adds the nodes' weights to the window's where the step is averaged.
// Over several ranks the weights are summed over them before the solve (ranks/device_reduce.hpp).
#pragma once

#include "core/cuda_check.hpp"
#include "core/grid_shape.hpp"
#include "ranks/device_reduce.hpp"
#include "sims/ccp/ccp.hpp"

namespace sb {
namespace ccp {

inline constexpr uint32_t kDepositBlock = 256;
inline constexpr uint32_t kSolveBlock = 256;

// Nodes whose weights a block sums in shared memory (both species: 2 x 8 bytes a node, 16 KB);
// past it, straight to the device's nodes.
inline constexpr uint32_t kSharedNodes = 1024;

__device__ inline void add_weights(const Mesh& m, double x, unsigned long long* nodes) {
  double frac;
  const uint32_t j = cell_of(m, x, frac);
  const unsigned long long right = right_weight(frac);
  atomicAdd(&nodes[j], (1ull << 32) - right);
  atomicAdd(&nodes[j + 1], right);
}

// Both species' weights: the electrons' meshes at [0, all), a mesh per replica, then the ions'
// (all = nodes x replicas).
template <bool kShared>
__global__ void deposit_weights(const Particle* ps, uint64_t n, Mesh m, uint32_t all,
                                unsigned long long* weights) {
  __shared__ unsigned long long local[kShared ? 2 * (kSharedNodes + 1) : 1];
  const uint32_t nodes = m.cells + 1;
  unsigned long long* sum = kShared ? local : weights;
  if (kShared) {
    for (uint32_t j = threadIdx.x; j < 2 * all; j += blockDim.x)
      local[j] = 0;
    __syncthreads();
  }
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += uint64_t{gridDim.x} * blockDim.x) {
    const Particle& p = ps[i];
    if (!is_alive(p.tag)) continue;
    unsigned long long* mesh = sum + uint64_t{replica_of(p.flags)} * nodes;
    if (p.flags & kElectron) add_weights(m, p.xe, mesh);
    if (p.flags & kIon) add_weights(m, p.xi, mesh + all);
  }
  if (kShared) {
    __syncthreads();
    for (uint32_t j = threadIdx.x; j < 2 * all; j += blockDim.x) {
      if (local[j] != 0) atomicAdd(&weights[j], local[j]);
    }
  }
}

// The field of replica blockIdx.x from its weights: the net charge by the block, the solve by its
// first thread, then the window's sums by the block. `net`, `d` and `phi` are scratch of a mesh
// per replica. A template (of its block size), as every kernel of a header is, so that every CUDA
// unit that includes it may instantiate it.
template <uint32_t kThreads>
__global__ void __launch_bounds__(kThreads)
    solve_on_device(Mesh m, uint32_t all, const int64_t* weights, double rhs_scale,
                    double wall_scale, double voltage, PoissonFactors f, int64_t* net, double* d,
                    double* phi, double* field, int64_t* window, bool average) {
  const uint32_t nodes = m.cells + 1, mesh = blockIdx.x * nodes;
  for (uint32_t j = threadIdx.x; j < nodes; j += kThreads)
    net[mesh + j] = weights[all + mesh + j] - weights[mesh + j];
  __syncthreads();
  if (threadIdx.x == 0) {
    solve_field(m, net + mesh, rhs_scale, wall_scale, voltage, f, d + mesh, phi + mesh,
                field + mesh);
  }
  if (average) {
    for (uint32_t j = threadIdx.x; j < nodes; j += kThreads) {
      window[mesh + j] += weights[mesh + j];
      window[all + mesh + j] += weights[all + mesh + j];
    }
  }
}

}  // namespace ccp

class CcpSim::DeviceState {
 public:
  DeviceState(const HostState& host, cudaStream_t stream)
      : setup_(host.setup()),
        stream_(stream),
        nodes_(setup_.nodes()),
        all_(setup_.nodes() * setup_.replicas()),
        e_energy_(setup_.electron_energy().size(), "ccp's electron cross sections"),
        e_sigma_(setup_.electron_sigma().size(), "ccp's electron cross sections"),
        i_energy_(setup_.ion_energy().size(), "ccp's ion cross sections"),
        i_sigma_(setup_.ion_sigma().size(), "ccp's ion cross sections"),
        factors_(nodes_, "ccp's Poisson factors"),
        weights_(2 * all_, "ccp's node weights"),
        window_(2 * all_, "ccp's averaged node weights"),
        net_(all_, "ccp's net charge"),
        scratch_(2 * all_, "ccp's Poisson scratch"),
        field_(all_, "ccp's field") {
    e_energy_.copy_from_host(setup_.electron_energy());
    e_sigma_.copy_from_host(setup_.electron_sigma());
    i_energy_.copy_from_host(setup_.ion_energy());
    i_sigma_.copy_from_host(setup_.ion_sigma());
    factors_.copy_from_host(setup_.factors().data(), setup_.factors().size());
    SB_CUDA_CHECK(cudaMemsetAsync(window_.data(), 0, 2 * all_ * sizeof(int64_t), stream));
    SB_CUDA_CHECK(cudaMemsetAsync(field_.data(), 0, all_ * sizeof(double), stream));
  }

  Params params() const {
    Params p = setup_.params(field_.data());
    p.electron.energy = e_energy_.data();
    p.electron.sigma = e_sigma_.data();
    p.ion.energy = i_energy_.data();
    p.ion.sigma = i_sigma_.data();
    return p;
  }

  void before_phase(Particle* ps, uint64_t n, PhaseWindow w, cudaStream_t stream) {
    const ccp::Mesh& m = setup_.mesh();
    SB_CUDA_CHECK(cudaMemsetAsync(weights_.data(), 0, 2 * all_ * sizeof(int64_t), stream));
    if (n > 0) {
      auto* weights = reinterpret_cast<unsigned long long*>(weights_.data());
      const uint32_t blocks = blocks_for(n, ccp::kDepositBlock);
      if (all_ <= ccp::kSharedNodes + 1) {
        ccp::deposit_weights<true>
            <<<blocks, ccp::kDepositBlock, 0, stream>>>(ps, n, m, all_, weights);
      } else {
        ccp::deposit_weights<false>
            <<<blocks, ccp::kDepositBlock, 0, stream>>>(ps, n, m, all_, weights);
      }
      SB_CUDA_CHECK(cudaGetLastError());
    }
    ranks::sum_on_device(ranks::world(), weights_.data(), 2 * all_, stream);
    const bool average = setup_.in_window(w);
    ccp::solve_on_device<ccp::kSolveBlock><<<setup_.replicas(), ccp::kSolveBlock, 0, stream>>>(
        m, all_, weights_.data(), setup_.rhs_scale(), setup_.wall_scale(),
        setup_.voltage_at(w.start), {factors_.data()}, net_.data(), scratch_.data(),
        scratch_.data() + all_, field_.data(), window_.data(), average);
    SB_CUDA_CHECK(cudaGetLastError());
    if (average) ++steps_;
  }

  ccp::WindowDeposits deposits() const {
    SB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    const std::vector<int64_t> both = window_.to_host();
    return {{both.begin(), both.begin() + static_cast<std::ptrdiff_t>(all_)},
            {both.begin() + static_cast<std::ptrdiff_t>(all_), both.end()},
            steps_};
  }

 private:
  const ccp::Setup& setup_;
  cudaStream_t stream_;
  uint32_t nodes_, all_;  // a mesh's nodes, and every replica's
  DeviceBuffer<double> e_energy_, e_sigma_, i_energy_, i_sigma_, factors_;
  DeviceBuffer<int64_t> weights_, window_, net_;
  DeviceBuffer<double> scratch_, field_;
  uint64_t steps_ = 0;
};

}  // namespace sb
