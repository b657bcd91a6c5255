// air's --space-charge on the device (the host's is sims/air/space_charge.hpp): the ions of the
// last phase's births gathered by a stream compaction (Thrust), the mesh placed around the box of
// electrons and ions (a Thrust reduction: min and max do not round, so every engine's box), then
// deposition with atomics in fixed point, the solve (fields::RunSolver) and the field, on the
// run's stream.
#pragma once

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform_reduce.h>

#include <algorithm>

#include "core/cuda_check.hpp"
#include "core/memory.hpp"
#include "fields/device/deposit_device.hpp"
#include "fields/device/field_device.hpp"
#include "fields/device/poisson_device.hpp"
#include "fields/device/run_solver.hpp"
#include "sims/air/device_state.cuh"
#include "sims/air/space_charge.hpp"

namespace sb {
namespace air {

struct IonPoint {
  double x, y, z;
};

struct PendingIon {
  PhaseWindow w;
  uint32_t steps_per_phase;
  SB_HD bool operator()(const ChargedParticle& p) const {
    return ion_pending(p, w, steps_per_phase);
  }
};

struct BirthPoint {
  SB_HD IonPoint operator()(const ChargedParticle& p) const { return {p.bx, p.by, p.bz}; }
};

struct BoxOfPoint {
  template <class Point>
  SB_HD Box operator()(const Point& p) const {
    Box b;
    b.add(p.x, p.y, p.z);
    return b;
  }
};

struct MergeBoxes {
  SB_HD Box operator()(const Box& a, const Box& b) const { return Box::merged(a, b); }
};

template <class Point>
Box device_box(const Point* first, uint64_t count, cudaStream_t stream) {
  if (count == 0) return Box{};
  return thrust::transform_reduce(thrust::cuda::par.on(stream), first, first + count, BoxOfPoint{},
                                  Box{}, MergeBoxes{});
}

class DeviceSpaceCharge {
 public:
  DeviceSpaceCharge(const SpaceChargeSetup& setup, cudaStream_t stream)
      : unit_(unit_mesh(fitting(setup))),
        mesh_(1, "the space charge's mesh"),
        charge_(unit_.nodes(), "the space charge's charge"),
        rho_(unit_.nodes(), "the space charge's density"),
        phi_(unit_.nodes(), "the space charge's potential"),
        ex_(unit_.nodes(), "the space charge's field, x"),
        ey_(unit_.nodes(), "the space charge's field, y"),
        ez_(unit_.nodes(), "the space charge's field, z"),
        deposit_(unit_, fields::Boundary::kOpen),
        solver_(unit_, fields::Boundary::kOpen, setup.solve_on_device, stream) {
    // A zero field on the unit mesh until the first phase: what a kernel that runs the step
    // without the phase work (bound) reads.
    for (double* e : {ex_.data(), ey_.data(), ez_.data()})
      SB_CUDA_CHECK(cudaMemsetAsync(e, 0, unit_.nodes() * sizeof(double), stream));
    SB_CUDA_CHECK(
        cudaMemcpyAsync(mesh_.data(), &unit_, sizeof unit_, cudaMemcpyHostToDevice, stream));
    SB_CUDA_CHECK(cudaStreamSynchronize(stream));  // unit_ is read until the copy is done
  }

  SpaceChargeView view() const { return {ex_.data(), ey_.data(), ez_.data(), mesh_.data()}; }

  void update(ChargedParticle* ps, uint64_t n, PhaseWindow w, uint32_t steps_per_phase,
              cudaStream_t stream) {
    add_ions(ps, n, PendingIon{w, steps_per_phase}, stream);
    const Box box = Box::merged(device_box(ps, n, stream), ion_box_);
    mesh_now_ = mesh_around(box, unit_.n);
    SB_CUDA_CHECK(cudaMemcpyAsync(mesh_.data(), &mesh_now_, sizeof mesh_now_,
                                  cudaMemcpyHostToDevice, stream));
    deposit_.place(mesh_now_);
    SB_CUDA_CHECK(cudaMemsetAsync(charge_.data(), 0, unit_.nodes() * sizeof(int64_t), stream));
    if (n > 0) {
      deposit_.deposit(fields::DepositVariant::kAtomic, {&ps->x, sizeof(ChargedParticle)}, n, -1,
                       charge_.data(), stream);
    }
    if (ion_count_ > 0) {
      deposit_.deposit(fields::DepositVariant::kAtomic, {&ions_.data()->x, sizeof(IonPoint)},
                       ion_count_, +1, charge_.data(), stream);
    }
    fields::device_charge_density(unit_, charge_.data(), unit_mesh_charge(mesh_now_.h), rho_.data(),
                                  stream);
    solver_.solve(rho_.data(), phi_.data(), stream);
    fields::device_electric_field(mesh_now_, fields::Boundary::kOpen, phi_.data(), ex_.data(),
                                  ey_.data(), ez_.data(), stream);
    // mesh_now_ is read by the copy above until the stream gets there.
    SB_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

 private:
  // The --grid's nodes, once the mesh's arrays and the solver are known to fit in the device's
  // free memory: checked before anything of them is allocated.
  static int fitting(const SpaceChargeSetup& setup) {
    const fields::Mesh unit = unit_mesh(setup.nodes);
    const uint64_t solver =
        setup.solve_on_device ? fields::solver_bytes(unit, fields::Boundary::kOpen) : 0;
    const DeviceMemory m = device_memory();
    constexpr uint64_t kArrays = 6;  // charge, rho, phi, ex, ey, ez: 8 bytes a node each
    require_bytes("device", fmt::format("--grid {} (the space charge)", setup.nodes),
                  kArrays * unit.nodes() * sizeof(double) + solver,
                  fmt::format(" ({} arrays of {}^3 x 8 B{})", kArrays, setup.nodes,
                              solver == 0 ? "" : fmt::format(", cuFFT's {} B", solver)),
                  m.free_bytes, m.describe());
    return setup.nodes;
  }

  // Appends the birth points of the electrons that `pending` picks to the ions, and widens the
  // ions' box by them.
  void add_ions(ChargedParticle* ps, uint64_t n, PendingIon pending, cudaStream_t stream) {
    if (n == 0) return;
    const auto policy = thrust::cuda::par.on(stream);
    const uint64_t added = thrust::count_if(policy, ps, ps + n, pending);
    if (added == 0) return;
    if (ion_count_ + added > ions_.size()) {
      DeviceBuffer<IonPoint> wider(std::max(ion_count_ + added, 2 * ions_.size()),
                                   "the space charge's ions");
      if (ion_count_ > 0) {
        SB_CUDA_CHECK(cudaMemcpyAsync(wider.data(), ions_.data(), ion_count_ * sizeof(IonPoint),
                                      cudaMemcpyDeviceToDevice, stream));
      }
      SB_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old buffer is freed below
      ions_ = std::move(wider);
    }
    IonPoint* end = ions_.data() + ion_count_;
    thrust::copy_if(policy, thrust::make_transform_iterator(ps, BirthPoint{}),
                    thrust::make_transform_iterator(ps + n, BirthPoint{}), ps, end, pending);
    ion_box_ = Box::merged(ion_box_, device_box(end, added, stream));
    ion_count_ += added;
  }

  fields::Mesh unit_;  // the solver's (space_charge.hpp, unit_mesh)
  fields::Mesh mesh_now_;
  DeviceBuffer<fields::Mesh> mesh_;  // where the step reads the mesh of the phase
  DeviceBuffer<int64_t> charge_;
  DeviceBuffer<double> rho_, phi_, ex_, ey_, ez_;
  DeviceBuffer<IonPoint> ions_{"the space charge's ions"};
  uint64_t ion_count_ = 0;
  Box ion_box_;
  fields::DeviceDeposit deposit_;
  fields::RunSolver solver_;
};

}  // namespace air

class AirSpaceChargeSim::DeviceState {
 public:
  DeviceState(const HostState& host, cudaStream_t stream)
      : field_(host.setup(), stream),
        air_(host.air(), stream),
        steps_per_phase_(host.air().params().steps_per_phase) {}

  Params params() const { return {air_.params(), field_.view()}; }

  void before_phase(Particle* ps, uint64_t n, PhaseWindow w, cudaStream_t stream) {
    field_.update(ps, n, w, steps_per_phase_, stream);
  }

 private:
  air::DeviceSpaceCharge field_;  // first: its memory check comes before any allocation here
  AirSim::DeviceState air_;       // the collision table, as air's
  uint32_t steps_per_phase_;
};

}  // namespace sb
