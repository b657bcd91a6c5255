// ccp on the device (the host's is sims/ccp/ccp.cpp): the cross sections uploaded once per run,
// and each step's grid work, in one of two forms. As kernels on the run's stream before each
// phase (before_phase): the deposit of both species on the nodes (integer weights, summed in
// shared memory and then added to the device's nodes, so that no order of additions shows), and
// the field's solve by one block a replica (sims/ccp/field.hpp's exact solution, the host's
// arithmetic, its double charge sums by the block's first warp), which also adds
// the nodes' weights to the window's where the step is averaged; over several ranks the weights
// are summed over them before the solve (ranks/device_reduce.hpp). Or inside a kernel that runs
// whole steps (StepGrid, schedulers/device/whole_phases.cuh): each particle deposited for the
// next step as it ends this one, and the solve between the grid's barriers.
#pragma once

#include <cub/warp/warp_scan.cuh>

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

// StepGrid's copies of the nodes' weights, and the most shared memory a block sums its deposits
// in (R = 1 and 8 replicas of the cases' meshes fit, R = 64 adds to device memory).
inline constexpr uint32_t kStepCopies = 8;
inline constexpr size_t kStepSharedBytes = 36 * 1024;

// The largest mesh StepGrid solves in shared memory (32 bytes a node, 16 KB: every case's 512
// cells at most).
inline constexpr uint32_t kStepSolveNodes = 513;

// field.hpp's double charge sums P_0 .. P_N of one mesh by the block's first warp, each lane
// summing a run of consecutive nodes in three passes (q, then Q, then P), the runs joined by warp
// scans: the same integers as the host's loop. Every thread of the block calls it; a
// __syncthreads after it orders the sums before their reads.
__device__ inline void double_charge_sums_by_warp(const Mesh& m, const int64_t* net,
                                                  ChargeSum* p) {
  using QScan = cub::WarpScan<int64_t>;
  using PScan = cub::WarpScan<ChargeSum>;
  __shared__ typename QScan::TempStorage q_scan;
  __shared__ typename PScan::TempStorage p_scan;
  if (threadIdx.x >= 32) return;
  const uint32_t nodes = m.cells + 1, run = (nodes + 31) / 32;
  const uint32_t first = min(threadIdx.x * run, nodes), end = min(first + run, nodes);
  int64_t q_run = 0;
  for (uint32_t j = first; j < end; ++j)
    q_run += interior_charge(m, net, j);
  int64_t q_before;  // Q_{first - 1}
  QScan(q_scan).ExclusiveSum(q_run, q_before);
  ChargeSum p_run = 0;  // the run's Q_j, those below N
  int64_t q = q_before;
  for (uint32_t j = first; j < end; ++j) {
    q += interior_charge(m, net, j);
    if (j < m.cells) p_run += q;
  }
  ChargeSum p_sum;  // P_first
  PScan(p_scan).ExclusiveSum(p_run, p_sum);
  q = q_before;
  for (uint32_t j = first; j < end; ++j) {
    p[j] = p_sum;
    q += interior_charge(m, net, j);
    p_sum += q;
  }
}

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

// The field of replica blockIdx.x from its weights: the net charge by the block, its double sums
// by the first warp, the potential and the field by the block, then the window's sums. `net`,
// `sums` and `phi` are scratch of a mesh per replica. A template (of its block size), as every
// kernel of a header is, so that every CUDA unit that includes it may instantiate it.
template <uint32_t kThreads>
__global__ void __launch_bounds__(kThreads)
    solve_on_device(Mesh m, uint32_t all, const int64_t* weights, double rhs_scale,
                    double wall_scale, double voltage, int64_t* net, ChargeSum* sums, double* phi,
                    double* field, int64_t* window, bool average) {
  const uint32_t nodes = m.cells + 1, mesh = blockIdx.x * nodes;
  for (uint32_t j = threadIdx.x; j < nodes; j += kThreads)
    net[mesh + j] = weights[all + mesh + j] - weights[mesh + j];
  __syncthreads();
  double_charge_sums_by_warp(m, net + mesh, sums + mesh);
  __syncthreads();
  for (uint32_t j = threadIdx.x; j < nodes; j += kThreads)
    phi[mesh + j] = potential_at(m, sums + mesh, rhs_scale, voltage, j);
  __syncthreads();
  for (uint32_t j = threadIdx.x; j < nodes; j += kThreads)
    field[mesh + j] = field_at_node(m, net + mesh, wall_scale, phi + mesh, j);
  if (average) {
    for (uint32_t j = threadIdx.x; j < nodes; j += kThreads) {
      window[mesh + j] += weights[mesh + j];
      window[all + mesh + j] += weights[all + mesh + j];
    }
  }
}

// The grid work of whole steps inside one kernel (schedulers/device/whole_phases.cuh). The
// weights of a step are deposited, as the step before ends, into the buffers of the step's
// parity, so that the solve of one step and the deposit for the next never share one. Each block
// sums its particles' weights in shared memory (where a replica's meshes fit) and adds them to
// one of kStepCopies copies of the nodes, by its index, so that the blocks' adds spread over
// more addresses than one mesh has; the solve sums the copies. The voltages are the host's
// (Setup::voltage_at), uploaded for the launch's steps: a device sine need not round as the
// host's does.
struct StepGrid {
  Mesh m;
  uint32_t all, replicas;
  unsigned long long* weights[2];  // by the parity of the step they are for: kStepCopies x 2 all
  int64_t* window;
  const double* voltage;  // each step's from first_step
  uint32_t first_step, average_from;
  double rhs_scale, wall_scale;
  int64_t* net;
  ChargeSum* sums;
  double *phi, *field;

  // Shared memory a block sums its deposits in: both species' nodes of every replica, or none
  // (each deposit then an add to the block's copy in device memory).
  SB_HD size_t shared_bytes() const {
    const size_t bytes = size_t{2} * all * sizeof(unsigned long long);
    return bytes <= kStepSharedBytes ? bytes : 0;
  }

  __device__ unsigned long long* copy_of_block(uint32_t step) const {
    return weights[step & 1] + uint64_t{blockIdx.x % kStepCopies} * 2 * all;
  }

  // Every thread of the block, once, before its first deposit (a __syncthreads after it).
  __device__ void begin_deposits(unsigned long long* shared) const {
    if (shared == nullptr) return;
    for (uint32_t j = threadIdx.x; j < 2 * all; j += blockDim.x)
      shared[j] = 0;
  }

  __device__ void deposit(const Particle& p, uint32_t step, unsigned long long* shared) const {
    unsigned long long* sum = shared != nullptr ? shared : copy_of_block(step);
    unsigned long long* mesh = sum + uint64_t{replica_of(p.flags)} * (m.cells + 1);
    if (p.flags & kElectron) add_weights(m, p.xe, mesh);
    if (p.flags & kIon) add_weights(m, p.xi, mesh + all);
  }

  // Every thread of the block, after a __syncthreads that follows the step's deposits: the
  // block's sums added to its copy, and emptied for the next step.
  __device__ void end_deposits(unsigned long long* shared, uint32_t step) const {
    if (shared == nullptr) return;
    unsigned long long* copy = copy_of_block(step);
    for (uint32_t j = threadIdx.x; j < 2 * all; j += blockDim.x) {
      const unsigned long long v = shared[j];
      if (v != 0) {
        atomicAdd(&copy[j], v);
        shared[j] = 0;
      }
    }
  }

  // The weight of value j (an electron node of a replica below all, an ion node above) summed
  // over the copies.
  __device__ int64_t weight(const int64_t* now, uint32_t j) const {
    int64_t sum = 0;
    for (uint32_t c = 0; c < kStepCopies; ++c)
      sum += now[uint64_t{c} * 2 * all + j];
    return sum;
  }

  // Blocks counted from the grid's last (whole_phases.cuh): the b-th from the end solves
  // replicas b, b + G, ... (G blocks), and the blocks after the solvers empty the next step's
  // weights and add this step's to the window's where it is averaged. A mesh of up to
  // kStepSolveNodes nodes is solved in shared memory, a larger one in the device's scratch.
  __device__ void solve(uint32_t step) const {
    __shared__ int64_t shared_net[kStepSolveNodes];
    __shared__ ChargeSum shared_sums[kStepSolveNodes];
    __shared__ double shared_phi[kStepSolveNodes];
    const auto* now = reinterpret_cast<const int64_t*>(weights[step & 1]);
    const uint32_t nodes = m.cells + 1;
    const bool in_shared = nodes <= kStepSolveNodes;
    const uint32_t from_last = gridDim.x - 1 - blockIdx.x;
    for (uint32_t r = from_last; r < replicas; r += gridDim.x) {
      const uint32_t mesh = r * nodes;
      int64_t* q = in_shared ? shared_net : net + mesh;
      ChargeSum* p = in_shared ? shared_sums : sums + mesh;
      double* potential = in_shared ? shared_phi : phi + mesh;
      for (uint32_t j = threadIdx.x; j < nodes; j += blockDim.x)
        q[j] = weight(now, all + mesh + j) - weight(now, mesh + j);
      __syncthreads();
      double_charge_sums_by_warp(m, q, p);
      __syncthreads();
      const double v = voltage[step - first_step];
      for (uint32_t j = threadIdx.x; j < nodes; j += blockDim.x)
        potential[j] = potential_at(m, p, rhs_scale, v, j);
      __syncthreads();
      for (uint32_t j = threadIdx.x; j < nodes; j += blockDim.x)
        field[mesh + j] = field_at_node(m, q, wall_scale, potential, j);
      __syncthreads();  // the shared arrays are read before the next replica's fill
    }
    unsigned long long* next = weights[(step + 1) & 1];
    const bool average = step >= average_from;
    const uint32_t after_solvers = (from_last + gridDim.x - min(replicas, gridDim.x)) % gridDim.x;
    for (uint32_t j = after_solvers * blockDim.x + threadIdx.x; j < 2 * all;
         j += gridDim.x * blockDim.x) {
      for (uint32_t c = 0; c < kStepCopies; ++c)
        next[uint64_t{c} * 2 * all + j] = 0;
      if (average) window[j] += weight(now, j);
    }
  }
};

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
        weights_(2 * all_, "ccp's node weights"),
        window_(2 * all_, "ccp's averaged node weights"),
        net_(all_, "ccp's net charge"),
        sums_(all_, "ccp's double charge sums"),
        phi_(all_, "ccp's potential"),
        field_(all_, "ccp's field"),
        step_weights_(2 * ccp::kStepCopies * 2 * all_, "ccp's node weights of two steps"),
        voltages_("ccp's electrode voltages of a launch") {
    e_energy_.copy_from_host(setup_.electron_energy());
    e_sigma_.copy_from_host(setup_.electron_sigma());
    i_energy_.copy_from_host(setup_.ion_energy());
    i_sigma_.copy_from_host(setup_.ion_sigma());
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
        setup_.voltage_at(w.start), net_.data(), sums_.data(), phi_.data(), field_.data(),
        window_.data(), average);
    SB_CUDA_CHECK(cudaGetLastError());
    if (average) ++steps_;
  }

  // The grid work of `steps` steps from `first` inside one kernel: their voltages uploaded, and
  // the first one's weights emptied for the deposit of the particles that start it.
  ccp::StepGrid step_grid(uint32_t first, uint32_t steps, cudaStream_t stream) {
    voltage_steps_.resize(steps);
    for (uint32_t k = 0; k < steps; ++k) {
      voltage_steps_[k] = setup_.voltage_at(first + k);
      if (setup_.in_window({first + k, first + k + 1})) ++steps_;
    }
    voltages_.reserve(steps);
    SB_CUDA_CHECK(cudaMemcpyAsync(voltages_.data(), voltage_steps_.data(), steps * sizeof(double),
                                  cudaMemcpyHostToDevice, stream));
    auto* weights = reinterpret_cast<unsigned long long*>(step_weights_.data());
    const size_t of_parity = size_t{ccp::kStepCopies} * 2 * all_;
    unsigned long long* by_parity[2] = {weights, weights + of_parity};
    SB_CUDA_CHECK(
        cudaMemsetAsync(by_parity[first & 1], 0, of_parity * sizeof(int64_t), stream));
    return {setup_.mesh(),
            all_,
            setup_.replicas(),
            {by_parity[0], by_parity[1]},
            window_.data(),
            voltages_.data(),
            first,
            setup_.average_from(),
            setup_.rhs_scale(),
            setup_.wall_scale(),
            net_.data(),
            sums_.data(),
            phi_.data(),
            field_.data()};
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
  DeviceBuffer<double> e_energy_, e_sigma_, i_energy_, i_sigma_;
  DeviceBuffer<int64_t> weights_, window_, net_;
  DeviceBuffer<ccp::ChargeSum> sums_;
  DeviceBuffer<double> phi_, field_;
  DeviceBuffer<int64_t> step_weights_;
  DeviceBuffer<double> voltages_;
  std::vector<double> voltage_steps_;
  uint64_t steps_ = 0;
};

}  // namespace sb
