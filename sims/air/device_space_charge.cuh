// air's --space-charge on the device (the host's is sims/air/space_charge.hpp): the ions of the
// last phase's births gathered by a stream compaction (Thrust), the mesh placed around the box of
// electrons and ions (a Thrust reduction: min and max do not round, so every engine's box), then
// the field module's pipeline on that open mesh (fields/device/mesh_field_device.hpp), on the
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
#include "fields/device/mesh_field_device.hpp"
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

struct PendingNegativeIon {
  SB_HD bool operator()(const ChargedParticle& p) const { return negative_ion_pending(p); }
};

struct PlaceNow {
  SB_HD IonPoint operator()(const ChargedParticle& p) const { return {p.x, p.y, p.z}; }
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

// Immobile point charges of one sign, in a device buffer that grows by doubling, and their box.
struct Ions {
  DeviceBuffer<IonPoint> points{"the space charge's ions"};
  uint64_t count = 0;
  Box box;

  // Appends point(p) for each of the n particles at ps that `pending` picks (a stream compaction:
  // the order does not matter, the deposit being an integer sum).
  template <class Pending, class Point>
  void append(const ChargedParticle* ps, uint64_t n, Pending pending, Point point,
              cudaStream_t stream) {
    if (n == 0) return;
    const auto policy = thrust::cuda::par.on(stream);
    const uint64_t added = thrust::count_if(policy, ps, ps + n, pending);
    if (added == 0) return;
    if (count + added > points.size()) {
      DeviceBuffer<IonPoint> wider(std::max(count + added, 2 * points.size()),
                                   "the space charge's ions");
      if (count > 0) {
        SB_CUDA_CHECK(cudaMemcpyAsync(wider.data(), points.data(), count * sizeof(IonPoint),
                                      cudaMemcpyDeviceToDevice, stream));
      }
      SB_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old buffer is freed below
      points = std::move(wider);
    }
    IonPoint* end = points.data() + count;
    thrust::copy_if(policy, thrust::make_transform_iterator(ps, point),
                    thrust::make_transform_iterator(ps + n, point), ps, end, pending);
    box = Box::merged(box, device_box(end, added, stream));
    count += added;
  }
};

class DeviceSpaceCharge {
 public:
  DeviceSpaceCharge(const SpaceChargeSetup& setup, cudaStream_t stream)
      : field_(unit_mesh(setup.nodes), fields::Boundary::kOpen, setup.solve_on_device,
               field_what(setup), "the space charge's", stream),
        unit_(unit_mesh(setup.nodes)),
        mesh_(1, "the space charge's mesh") {
    SB_CUDA_CHECK(
        cudaMemcpyAsync(mesh_.data(), &unit_, sizeof unit_, cudaMemcpyHostToDevice, stream));
    SB_CUDA_CHECK(cudaStreamSynchronize(stream));  // unit_ is read until the copy is done
  }

  SpaceChargeView view() const { return {field_.ex(), field_.ey(), field_.ez(), mesh_.data()}; }

  void update(ChargedParticle* ps, uint64_t n, PhaseWindow w, uint32_t steps_per_phase,
              cudaStream_t stream) {
    ions_.append(ps, n, PendingIon{w, steps_per_phase}, BirthPoint{}, stream);
    const Box box = over_ranks(
        Box::merged(device_box(ps, n, stream), Box::merged(ions_.box, negative_ions_.box)));
    mesh_now_ = mesh_around(box, unit_.n);
    SB_CUDA_CHECK(cudaMemcpyAsync(mesh_.data(), &mesh_now_, sizeof mesh_now_,
                                  cudaMemcpyHostToDevice, stream));
    field_.begin(mesh_now_, stream);
    if (n > 0) field_.deposit({&ps->x, sizeof(ChargedParticle)}, n, -1, stream);
    deposit(ions_, +1, stream);
    deposit(negative_ions_, -1, stream);
    field_.solve(unit_mesh_charge(mesh_now_.h), stream);
    // The attached electrons deposited as electrons above; from the next phase on, as ions.
    negative_ions_.append(ps, n, PendingNegativeIon{}, PlaceNow{}, stream);
    // mesh_now_ is read by the copy above until the stream gets there.
    SB_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

 private:
  void deposit(const Ions& ions, int sign, cudaStream_t stream) {
    if (ions.count > 0)
      field_.deposit({&ions.points.data()->x, sizeof(IonPoint)}, ions.count, sign, stream);
  }

  fields::DeviceMeshField field_;  // first: its memory check comes before any allocation here
  fields::Mesh unit_;              // the solver's (space_charge.hpp, unit_mesh)
  fields::Mesh mesh_now_;
  DeviceBuffer<fields::Mesh> mesh_;  // where the step reads the mesh of the phase
  Ions ions_, negative_ions_;
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
