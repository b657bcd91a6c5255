#include "harness/bench/fields_kernels.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <random>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/errors.hpp"
#include "fields/device/deposit_device.hpp"
#include "fields/device/field_device.hpp"
#include "fields/device/poisson_device.hpp"
#include "fields/poisson.hpp"
#include "schedulers/device/driver.cuh"

namespace sb {
namespace {

using fields::Boundary;
using fields::Mesh;
using Json = nlohmann::ordered_json;

// A cube of side 1 m split into n cells per axis (periodic: n nodes per axis).
Mesh unit_cube(int n) {
  Mesh m;
  m.n = n;
  m.h = 1.0 / n;
  return m;
}

// Positions (x, y, z) of `count` particles in the unit cube: uniform, or a Gaussian cloud of
// standard deviation 1/16 around its centre (wrapped into the cube), seeded.
std::vector<double> positions(uint64_t count, bool clustered) {
  std::mt19937_64 rng(15);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::normal_distribution<double> cloud(0.5, 1.0 / 16);
  std::vector<double> xyz(3 * count);
  for (double& v : xyz) {
    v = clustered ? cloud(rng) : uniform(rng);
    v -= std::floor(v);
  }
  return xyz;
}

// Values of either sign at every node, as a charge density or a potential (what the passes cost
// does not depend on the values).
std::vector<double> grid_values(const Mesh& mesh) {
  std::vector<double> out(mesh.nodes());
  for (uint64_t i = 0; i < out.size(); ++i)
    out[i] = 1e-6 * (static_cast<double>(i % 7) - 3);
  return out;
}

// `warmup` untimed passes, then the point's repetitions of `pass` (which enqueues on `stream`),
// each timed by CUDA events.
template <class Pass>
TimedRepetitions time_device(const FieldsPoint& p, int warmup, cudaStream_t stream, Pass pass) {
  for (int i = 0; i < warmup; ++i)
    pass();
  SB_CUDA_CHECK(cudaStreamSynchronize(stream));
  EventTimer timer;
  return time_repetitions(p.repetitions, [&](Repetition& rep) {
    timer.start(stream);
    pass();
    timer.stop(stream);
    SB_CUDA_CHECK(cudaStreamSynchronize(stream));
    rep.time_ms = timer.elapsed_ms();
  });
}

// The positions of the point's particles on the device.
DeviceBuffer<double> device_positions(const FieldsConfig& c) {
  const std::vector<double> host = positions(c.particles, c.clustered);
  DeviceBuffer<double> xyz(host.size(), "the particles' positions");
  xyz.copy_from_host(host);
  return xyz;
}

Boundary boundary(const FieldsConfig& c) {
  return c.open ? Boundary::kOpen : Boundary::kPeriodic;
}

TimedRepetitions deposit(const FieldsPoint& p, int warmup, Json& counters) {
  const FieldsConfig& c = p.config;
  const Mesh mesh = unit_cube(c.grid);
  DeviceBuffer<double> xyz = device_positions(c);
  DeviceBuffer<int64_t> charge(mesh.nodes(), "the charge grid");
  CudaStream stream;
  fields::DeviceDeposit depositor(mesh, Boundary::kPeriodic);
  const fields::DepositVariant variant = c.kernel == FieldKernel::kDepositSorted
                                             ? fields::DepositVariant::kSorted
                                             : fields::DepositVariant::kAtomic;
  counters["particles_per_cell"] = static_cast<double>(c.particles) / mesh.nodes();
  // The grid is not cleared between passes: the deposit's cost does not depend on its sums.
  return time_device(p, warmup, stream, [&] {
    depositor.deposit(variant, {xyz.data(), 3 * sizeof(double)}, c.particles, -1, charge.data(),
                      stream);
  });
}

TimedRepetitions device_solve(const FieldsPoint& p, int warmup, Json& counters) {
  const Mesh mesh = unit_cube(p.config.grid);
  const uint64_t need = fields::solver_bytes(mesh, boundary(p.config));
  const DeviceMemory free = device_memory();
  if (need + 2 * mesh.nodes() * sizeof(double) > free.free_bytes)
    throw RunError(fmt::format("needs {}; {}", format_bytes(need), free.describe()));
  DeviceBuffer<double> rho(mesh.nodes(), "rho"), phi(mesh.nodes(), "phi");
  rho.copy_from_host(grid_values(mesh));
  CudaStream stream;
  const auto solver = fields::make_device_solver(mesh, boundary(p.config), stream);
  counters["solver_bytes"] = need;
  return time_device(p, warmup, stream, [&] { solver->solve(rho.data(), phi.data()); });
}

TimedRepetitions host_solve(const FieldsPoint& p, int warmup) {
  const Mesh mesh = unit_cube(p.config.grid);
  const std::vector<double> rho = grid_values(mesh);
  std::vector<double> phi(mesh.nodes());
  const auto solver = fields::make_host_solver(mesh, boundary(p.config));
  for (int i = 0; i < warmup; ++i)
    solver->solve(rho.data(), phi.data());
  return time_repetitions(p.repetitions, [&](Repetition& rep) {
    const auto start = std::chrono::steady_clock::now();
    solver->solve(rho.data(), phi.data());
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    rep.time_ms = took.count();
  });
}

// The field of a potential on a periodic grid, or (gather) its gather at the point's particles.
TimedRepetitions field_pass(const FieldsPoint& p, int warmup) {
  const FieldsConfig& c = p.config;
  const Mesh mesh = unit_cube(c.grid);
  DeviceBuffer<double> phi(mesh.nodes(), "phi");
  phi.copy_from_host(grid_values(mesh));
  DeviceBuffer<double> ex(mesh.nodes(), "ex"), ey(mesh.nodes(), "ey"), ez(mesh.nodes(), "ez");
  CudaStream stream;
  const auto field = [&] {
    fields::device_electric_field(mesh, Boundary::kPeriodic, phi.data(), ex.data(), ey.data(),
                                  ez.data(), stream);
  };
  if (c.kernel == FieldKernel::kField) return time_device(p, warmup, stream, field);
  DeviceBuffer<double> xyz = device_positions(c);
  DeviceBuffer<double> e(3 * c.particles, "the gathered field");
  field();
  return time_device(p, warmup, stream, [&] {
    fields::device_gather(mesh, Boundary::kPeriodic, ex.data(), ey.data(), ez.data(),
                          {xyz.data(), 3 * sizeof(double)}, c.particles, e.data(), stream);
  });
}

}  // namespace

TimedRepetitions measure_fields_point(const FieldsPoint& p, int warmup, Json& counters) {
  switch (p.config.kernel) {
    case FieldKernel::kDepositAtomic:
    case FieldKernel::kDepositSorted:
      return deposit(p, warmup, counters);
    case FieldKernel::kSolveCufft:
      return device_solve(p, warmup, counters);
    case FieldKernel::kSolveFftw:
      return host_solve(p, warmup);
    case FieldKernel::kField:
    case FieldKernel::kGather:
      break;
  }
  return field_pass(p, warmup);
}

}  // namespace sb
