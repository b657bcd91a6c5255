// The field module's costs (issue 15; docs/performance.md, "Self-consistent fields"):
// - deposition of 10^6 particles, plain atomics against sorted by cell, on grids from 16^3 to
//   512^3 (mean particles per cell 244 down to 0.0075), spread uniformly or clustered in a
//   Gaussian cloud;
// - the Poisson solve, cuFFT and FFTW (the host solver, one thread), periodic and open at 64^3,
//   128^3 and 256^3, and periodic at 512^3;
// - the field (centred differences) on 64^3 to 512^3, and its gather at 10^6 uniform particles.
// Device times by CUDA events, host times by the clock. Ends with three tables of mean times.
//
//   bench_fields [Google Benchmark flags]
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <random>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/errors.hpp"
#include "fields/device/deposit_device.hpp"
#include "fields/device/field_device.hpp"
#include "fields/device/poisson_device.hpp"
#include "fields/poisson.hpp"
#include "harness/bench/gbench_support.hpp"
#include "harness/io/text_table.hpp"
#include "schedulers/device/driver.cuh"

namespace sb {
namespace {

using fields::Boundary;
using fields::Mesh;

constexpr uint64_t kParticles = 1'000'000;
constexpr int kIterations = 20;
constexpr int kHostIterations = 3;  // FFTW takes seconds a solve at 512^3
const std::vector<int> kDepositGrids = {16, 32, 64, 128, 256, 512};
const std::vector<int> kFieldGrids = {64, 128, 256, 512};

// A cube of side 1 m split into n cells per axis (periodic: n nodes per axis).
Mesh unit_cube(int n) {
  Mesh m;
  m.n = n;
  m.h = 1.0 / n;
  return m;
}

// Positions (x, y, z) of kParticles particles in the unit cube: uniform, or a Gaussian cloud
// of standard deviation 1/16 around its centre (wrapped into the cube), seeded.
std::vector<double> positions(bool clustered) {
  std::mt19937_64 rng(15);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::normal_distribution<double> cloud(0.5, 1.0 / 16);
  std::vector<double> xyz(3 * kParticles);
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

// Times `pass` (which enqueues on the stream it is given) with CUDA events, once per iteration.
template <class Pass>
void time_device(benchmark::State& state, cudaStream_t stream, Pass pass) {
  EventTimer timer;
  for (auto _ : state) {
    timer.start(stream);
    pass();
    timer.stop(stream);
    SB_CUDA_CHECK(cudaStreamSynchronize(stream));
    state.SetIterationTime(timer.elapsed_ms() * 1e-3);
  }
}

std::string deposit_name(const char* variant, int n, bool clustered) {
  return fmt::format("deposit/variant:{}/grid:{}/layout:{}", variant, n,
                     clustered ? "clustered" : "uniform");
}

void deposit(benchmark::State& state, fields::DepositVariant variant, int n, bool clustered) {
  const Mesh mesh = unit_cube(n);
  const std::vector<double> host = positions(clustered);
  DeviceBuffer<double> xyz(host.size(), "the particles' positions");
  xyz.copy_from_host(host);
  DeviceBuffer<int64_t> charge(mesh.nodes(), "the charge grid");
  CudaStream stream;
  fields::DeviceDeposit depositor(mesh, Boundary::kPeriodic);
  // The grid is not cleared between iterations: the deposit's cost does not depend on its sums.
  time_device(state, stream, [&] {
    depositor.deposit(variant, {xyz.data(), 3 * sizeof(double)}, kParticles, -1, charge.data(),
                      stream);
  });
  state.counters["particles_per_cell"] = double(kParticles) / double(mesh.nodes());
}

std::string solve_name(const char* backend, Boundary b, int n) {
  return fmt::format("solve/backend:{}/boundary:{}/grid:{}", backend,
                     b == Boundary::kPeriodic ? "periodic" : "open", n);
}

void device_solve(benchmark::State& state, Boundary boundary, int n) {
  const Mesh mesh = unit_cube(n);
  const uint64_t need = fields::solver_bytes(mesh, boundary);
  const DeviceMemory free = device_memory();
  if (need + 2 * mesh.nodes() * sizeof(double) > free.free_bytes) {
    state.SkipWithError(fmt::format("needs {}; {}", format_bytes(need), free.describe()).c_str());
    return;
  }
  DeviceBuffer<double> rho(mesh.nodes(), "rho"), phi(mesh.nodes(), "phi");
  rho.copy_from_host(grid_values(mesh));
  CudaStream stream;
  const auto solver = fields::make_device_solver(mesh, boundary, stream);
  time_device(state, stream, [&] { solver->solve(rho.data(), phi.data()); });
  state.counters["solver_bytes"] = double(need);
}

void host_solve(benchmark::State& state, Boundary boundary, int n) {
  const Mesh mesh = unit_cube(n);
  const std::vector<double> rho = grid_values(mesh);
  std::vector<double> phi(mesh.nodes());
  const auto solver = fields::make_host_solver(mesh, boundary);
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    solver->solve(rho.data(), phi.data());
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    state.SetIterationTime(took.count());
  }
}

// The solves measured: periodic and open at 64^3 to 256^3, and periodic at 512^3.
std::vector<std::pair<Boundary, int>> solves() {
  std::vector<std::pair<Boundary, int>> out;
  for (int n : {64, 128, 256, 512}) {
    out.push_back({Boundary::kPeriodic, n});
    if (n < 512) out.push_back({Boundary::kOpen, n});
  }
  return out;
}

std::string pass_name(const char* pass, int n) {
  return fmt::format("{}/grid:{}", pass, n);
}

// The field of a potential on a periodic grid, and (gather) its gather at kParticles
// uniform particles.
void field_pass(benchmark::State& state, int n, bool gather) {
  const Mesh mesh = unit_cube(n);
  DeviceBuffer<double> phi(mesh.nodes(), "phi");
  phi.copy_from_host(grid_values(mesh));
  DeviceBuffer<double> ex(mesh.nodes(), "ex"), ey(mesh.nodes(), "ey"), ez(mesh.nodes(), "ez");
  const std::vector<double> host = positions(false);
  DeviceBuffer<double> xyz(host.size(), "the particles' positions"), e(host.size(), "gathered");
  xyz.copy_from_host(host);
  CudaStream stream;
  const auto field = [&] {
    fields::device_electric_field(mesh, Boundary::kPeriodic, phi.data(), ex.data(), ey.data(),
                                  ez.data(), stream);
  };
  if (!gather) {
    time_device(state, stream, field);
    return;
  }
  field();
  time_device(state, stream, [&] {
    fields::device_gather(mesh, Boundary::kPeriodic, ex.data(), ey.data(), ez.data(),
                          {xyz.data(), 3 * sizeof(double)}, kParticles, e.data(), stream);
  });
}

std::string cell(const MeanCollector& c, const std::string& name) {
  const auto it = c.ms.find(name);
  return it == c.ms.end() ? "-" : fmt::format("{:.3f}", it->second);
}

void print_tables(const MeanCollector& c) {
  TextTable d({"grid", "particles per cell", "atomic, uniform", "sorted, uniform",
               "atomic, clustered", "sorted, clustered"});
  for (int n : kDepositGrids) {
    std::vector<std::string> row = {
        fmt::format("{}^3", n), fmt::format("{:.4g}", double(kParticles) / (double(n) * n * n))};
    for (bool clustered : {false, true}) {
      for (const char* v : {"atomic", "sorted"})
        row.push_back(cell(c, deposit_name(v, n, clustered)));
    }
    d.add_row(row);
  }
  fmt::print(
      "\nms to deposit {} particles (periodic grid; clustered: a Gaussian cloud of sigma 1/16 of "
      "the cube)\n{}",
      kParticles, d.str());
  TextTable s({"grid", "boundary", "cuFFT", "FFTW (1 thread)"});
  for (const auto& [b, n] : solves()) {
    s.add_row({fmt::format("{}^3", n), b == Boundary::kPeriodic ? "periodic" : "open",
               cell(c, solve_name("cufft", b, n)), cell(c, solve_name("fftw", b, n))});
  }
  fmt::print("\nms per Poisson solve\n{}", s.str());
  TextTable f({"grid", "field", "gather"});
  for (int n : kFieldGrids)
    f.add_row(
        {fmt::format("{}^3", n), cell(c, pass_name("field", n)), cell(c, pass_name("gather", n))});
  fmt::print("\nms for the field on the grid and its gather at {} uniform particles (periodic)\n{}",
             kParticles, f.str());
}

int bench_main(int argc, char** argv) {
  try {
    check_benchmark_out(argc, argv);
  } catch (const UsageError& e) {
    fmt::print(stderr, "bench_fields: error: {}\n", e.what());
    return 2;
  }
  if (const std::optional<int> code = start_benchmarks("bench_fields", argc, argv)) return *code;
  const auto timed = [](benchmark::internal::Benchmark* b, int iterations) {
    b->UseManualTime()->Iterations(iterations)->Unit(benchmark::kMillisecond);
  };
  for (bool clustered : {false, true}) {
    for (int n : kDepositGrids) {
      for (auto [name, v] : {std::pair{"atomic", fields::DepositVariant::kAtomic},
                             std::pair{"sorted", fields::DepositVariant::kSorted}}) {
        timed(benchmark::RegisterBenchmark(deposit_name(name, n, clustered).c_str(), deposit, v, n,
                                           clustered),
              kIterations);
      }
    }
  }
  for (const auto& [b, n] : solves()) {
    timed(benchmark::RegisterBenchmark(solve_name("cufft", b, n).c_str(), device_solve, b, n),
          kIterations);
    timed(benchmark::RegisterBenchmark(solve_name("fftw", b, n).c_str(), host_solve, b, n),
          kHostIterations);
  }
  for (int n : kFieldGrids) {
    for (bool gather : {false, true}) {
      timed(benchmark::RegisterBenchmark(pass_name(gather ? "gather" : "field", n).c_str(),
                                         field_pass, n, gather),
            kIterations);
    }
  }
  MeanCollector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  print_tables(collector);
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace sb

int main(int argc, char** argv) {
  return sb::bench_main(argc, argv);
}
