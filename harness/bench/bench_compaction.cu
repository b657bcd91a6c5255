// Dead-particle removal on its own (seed 003 Table 3.2): 10^7 pic particles, the five variants
// of schedulers/device/compaction.cuh, block sizes 128 and 1024, with no dead particles (the
// seed's configuration: 10 poisson steps, 0 mobility steps) and with half of them dead. Each
// iteration restores the array (untimed) and times one pass with device events; the table
// printed last gives the time of 10 passes, the seed's unit.
//
//   bench_compaction [--particles=N] [Google Benchmark flags]
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/hash.hpp"
#include "harness/bench/gbench_support.hpp"
#include "harness/io/text_table.hpp"
#include "harness/job/values.hpp"
#include "schedulers/device/compaction.cuh"
#include "schedulers/device/driver.cuh"
#include "sims/pic/pic.hpp"

namespace sb {
namespace {

using Particle = PicSim::Particle;

constexpr int kPasses = 10;

// The pristine particles of one point: all alive, or every other one (by a hash) dead.
DeviceBuffer<Particle> make_particles(uint64_t n, double dead_fraction) {
  RunConfig c;
  c.init_n = n;
  c.capacity = n;
  c.poisson_steps = 1;
  c.mobility_steps = 1;
  const PicSim::HostState state(c);
  std::vector<Particle> host = initial_particles<PicSim>(c, state.params());
  const auto cut = static_cast<uint64_t>(dead_fraction * 18446744073709551615.0);
  for (uint64_t i = 0; i < n; ++i) {
    if (mix64(i) < cut) host[i].tag.status = kDead;
  }
  DeviceBuffer<Particle> out(n, "the pristine particles");
  out.copy_from_host(host);
  return out;
}

void compact(benchmark::State& state, std::string variant, uint32_t block, double dead_fraction,
             uint64_t n) {
  const DeviceBuffer<Particle> pristine = make_particles(n, dead_fraction);
  DeviceBuffer<Particle> working(n, "the particles to compact");
  CudaStream stream;
  Compactor<Particle> compactor(variant, working, static_cast<uint32_t>(n), block, stream);
  EventTimer timer;
  uint32_t alive = 0;
  for (auto _ : state) {
    SB_CUDA_CHECK(cudaMemcpyAsync(working.data(), pristine.data(), n * sizeof(Particle),
                                  cudaMemcpyDeviceToDevice, stream));
    timer.start(stream);
    alive = compactor.compact(static_cast<uint32_t>(n));
    timer.stop(stream);
    SB_CUDA_CHECK(cudaStreamSynchronize(stream));
    state.SetIterationTime(timer.elapsed_ms() * 1e-3);
  }
  state.counters["alive"] = alive;
}

std::string point_name(const std::string& variant, uint32_t block, double dead) {
  return fmt::format("compaction/{}/block_size:{}/dead:{}", variant, block, dead);
}

int bench_main(int argc, char** argv) {
  uint64_t n = 10'000'000;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--particles=", 0) == 0) {
      try {
        n = parse_whole("--particles", arg.substr(12), 1, kMaxCount);
      } catch (const UsageError& e) {
        fmt::print(stderr, "bench_compaction: error: {}\n", e.what());
        return 2;
      }
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  try {
    check_benchmark_out(argc, argv);
  } catch (const UsageError& e) {
    fmt::print(stderr, "bench_compaction: error: {}\n", e.what());
    return 2;
  }
  if (const std::optional<int> code = start_benchmarks("bench_compaction", argc, argv))
    return *code;
  const std::vector<uint32_t> blocks = {128, 1024};
  const std::vector<double> dead = {0.0, 0.5};
  for (const std::string& v : compaction_variants()) {
    for (uint32_t b : blocks) {
      for (double d : dead) {
        benchmark::RegisterBenchmark(point_name(v, b, d).c_str(), compact, v, b, d, n)
            ->UseManualTime()
            ->Iterations(kPasses)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  MeanCollector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);

  TextTable t(
      {"variant", "128, none dead", "1024, none dead", "128, half dead", "1024, half dead"});
  for (const std::string& v : compaction_variants()) {
    std::vector<std::string> row = {v};
    for (double d : dead) {
      for (uint32_t b : blocks) {
        const auto it = collector.ms.find(point_name(v, b, d));
        row.push_back(it == collector.ms.end() ? "-" : fmt::format("{:.1f}", kPasses * it->second));
      }
    }
    t.add_row(row);
  }
  fmt::print(
      "\nms for {} passes over {} pic particles (seed Table 3.2, V100, none dead: simple 71 / "
      "108, block 66 / 111, warp 64 / 118 at block sizes 128 / 1024)\n{}",
      kPasses, n, t.str());
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace sb

int main(int argc, char** argv) {
  return sb::bench_main(argc, argv);
}
