// Every GPU scheduler against cpu-serial, on every sim (the example sim included): the same final
// particles (digest and counts), a capacity error instead of a silent drop, and the watchdog
// instead of a hang.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "core/cuda_check.hpp"
#include "core/errors.hpp"
#include "core/precision.hpp"
#include "schedulers/compaction_variants.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/registry.hpp"
#include "sims/pic/pic.hpp"
#include "tests/support/air_config.hpp"
#include "tests/support/engine_cases.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/summary.hpp"

namespace sb {
namespace {

using testing_support::gpu_schedulers;

struct Config {
  const char* name;
  RunConfig run;
};

// GoogleTest names a parameter by this instead of dumping its bytes.
void PrintTo(const Config& c, std::ostream* os) {
  *os << c.name;
}

RunConfig base(const char* sim, uint64_t init_n, uint32_t steps, uint32_t block = 128) {
  RunConfig c;
  c.sim = sim;
  c.init_n = init_n;
  if (steps > 0) sb::steps_parameter().set(c, steps);
  launch_knobs::block_size().set(c, block);
  c.capacity = 4'000'000;  // small enough that huge-iterate's grid over it stays quick
  launch_knobs::timeout().set(c, 30);        // a hang fails the test instead of holding the machine
  return c;
}

RunConfig pic(uint64_t init_n, uint32_t poisson, uint32_t mobility, double chance) {
  RunConfig c = base("pic", init_n, 0);
  sb::pic::poisson_steps().set(c, poisson);
  sb::pic::mobility_steps().set(c, mobility);
  if (chance >= 0) sb::pic::collision_chance().set(c, chance);
  return c;
}

// Small air runs (seconds on an H100).
RunConfig air(const char* gas, double td, uint64_t init_n, uint32_t phases) {
  return with_air(base("air", init_n, 0), gas, td, phases);
}

// Air with its space charge, on a mesh of `grid` nodes a side around electrons started within
// 5 um of the centre; solved on the device unless the caller asks for the host.
// ccp's Case 1 on `cells` cells, `periods` RF periods of `steps` steps, as `replicas` discharges
// sharing init_n, with room for 4·10^6 records and a minute's watchdog.
RunConfig ccp_replicas(uint64_t init_n, uint32_t cells, uint32_t steps, uint32_t periods,
                       uint64_t replicas) {
  RunConfig c = engine_cases::ccp(1, init_n, cells, steps, periods);
  for (const DeclaredParameter* p : find_sim("ccp").parameters) {
    if (p->key == "replicas") p->set(c, replicas);
  }
  c.capacity = 4'000'000;
  launch_knobs::timeout().set(c, 60);
  return c;
}

RunConfig air_space_charge(uint64_t init_n, uint32_t phases, int grid) {
  RunConfig c = air("N2:1", 400, init_n, phases);
  sb::air::space_charge().set(c, true);
  sb::fields::grid().set(c, grid);
  sb::air::init_radius().set(c, 5e-6);
  return c;
}

std::vector<Config> configs() {
  std::vector<Config> out;
  out.push_back({"few_particles", base("toy", 3, 2500)});
  RunConfig many = base("mvp", 600'000, 100);  // more particles than resident threads
  sb::mvp::split_chance().set(many, 0.2);
  out.push_back({"more_particles_than_threads", many});
  RunConfig heavy = base("mvp", 1000, 150);  // about 1.5 million spawned
  sb::mvp::split_chance().set(heavy, 5);
  out.push_back({"heavy_spawning", heavy});
  RunConfig column = base("toy", 3000, 2000);  // about 2.6 million, splits in waves
  sb::toy::layout().set(column, "column");
  out.push_back({"toy_column_waves", column});
  RunConfig skip = base("mvp", 20'000, 300);
  sb::mvp::split_chance().set(skip, 2);
  sb::mvp::skip_spawned().set(skip, true);
  out.push_back({"mvp_skip_spawned", skip});
  RunConfig b32 = base("mvp", 50'000, 400, 32);
  sb::mvp::split_chance().set(b32, 0.5);
  out.push_back({"block_size_32", b32});
  RunConfig b1024 = base("toy", 20'000, 1600, 1024);
  sb::toy::layout().set(b1024, "column");
  out.push_back({"block_size_1024", b1024});
  // The example sim of docs/design.md §9 (examples/walk_sim.hpp): walkers split and die.
  RunConfig walk = base("walk", 20'000, 600);
  sb::mvp::split_chance().set(walk, 1);
  out.push_back({"walk_split_and_die", walk});
  out.push_back({"pic_synthetic_table", pic(20'000, 3, 300, -1)});
  out.push_back({"pic_chance_30", pic(2000, 2, 150, 30)});
  out.push_back({"pic_chance_60", pic(2000, 2, 150, 60)});
  out.push_back({"pic_chance_90", pic(2000, 2, 150, 90)});
  out.push_back({"pic_extinction", pic(20, 5, 200, 90)});
  // The Poisson field solved on the host (FFTW, as cpu-serial), so every digest is cpu-serial's.
  RunConfig poisson = pic(20'000, 3, 200, 30);
  sb::pic::field().set(poisson, "poisson");
  sb::fields::grid().set(poisson, 64);
  sb::fields::field_solver().set(poisson, "host");
  out.push_back({"pic_poisson_field_host_solve", poisson});
  // More particles than resident threads, living a few steps: cpu-sync's warps leave their
  // last lanes to the next generation, dynamic-block's publish them.
  out.push_back({"pic_more_particles_than_threads", pic(200'000, 2, 60, 20)});
  out.push_back({"air_ionization_dominated", air("N2:1", 400, 2000, 4)});  // about 5000 at the end
  out.push_back({"air_attachment_dominated", air("O2:1", 20, 20'000, 3)});
  out.push_back({"air_near_balance", air("N2:0.8,O2:0.2", 120, 20'000, 3)});
  RunConfig magnetic = air("N2:0.8,O2:0.2", 300, 5000, 3);
  sb::air::magnetic_field().set(magnetic, 20);
  sb::air::field_angle().set(magnetic, 60);
  out.push_back({"air_magnetic_field", magnetic});
  RunConfig three = air("N2:0.78,O2:0.21,Ar:0.01", 150, 10'000, 3);
  sb::air::thermal_gas().set(three, true);
  out.push_back({"air_three_gases_thermal", three});
  // The space charge solved on the host (FFTW, as cpu-serial), so every digest is cpu-serial's.
  RunConfig space_charge = air_space_charge(2000, 4, 32);
  sb::fields::field_solver().set(space_charge, "host");
  out.push_back({"air_space_charge_host_solve", space_charge});
  // ccp's first and last cases at a reduced size, its field solved on the device (the host's
  // arithmetic: sims/ccp/field.hpp), so every digest is cpu-serial's.
  for (auto [name, number, periods, steps] :
       {std::tuple{"ccp_case1", 1, 3u, 200u}, std::tuple{"ccp_case4", 4, 2u, 400u}}) {
    RunConfig ccp = engine_cases::ccp(number, 6000, 32, steps, periods);
    ccp.capacity = 4'000'000;
    launch_knobs::timeout().set(ccp, 30);
    out.push_back({name, ccp});
  }
  // Reduced precision (core/precision.hpp): float arithmetic rounds alike on host and device, so
  // every precision's runs give cpu-serial's particles.
  RunConfig pic_mixed = pic(20'000, 3, 300, -1);
  sb::precision::parameter().set(pic_mixed, "mixed");
  out.push_back({"pic_mixed_precision", pic_mixed});
  RunConfig pic_single = pic(200'000, 2, 60, 20);
  sb::precision::parameter().set(pic_single, "single");
  out.push_back({"pic_single_precision", pic_single});
  RunConfig air_mixed = air("N2:1", 400, 2000, 4);
  sb::precision::parameter().set(air_mixed, "mixed");
  out.push_back({"air_mixed_precision", air_mixed});
  RunConfig air_single = magnetic;
  sb::air::thermal_gas().set(air_single, true);
  sb::precision::parameter().set(air_single, "single");
  out.push_back({"air_single_precision_magnetic_thermal", air_single});
  // Three-body attachment grows as the pressure squared: at 10 bar every electron is gone
  // within the 6th of 6 phases of 50 ps.
  RunConfig extinct = air("O2:1", 5, 1000, 6);
  sb::air::pressure().set(extinct, 10);
  sb::air::phase_time().set(extinct, 5e-11);
  out.push_back({"air_extinction", extinct});
  // The largest blocks on the sims whose kernels take more than 64 registers (pic, air): each
  // scheduler launches its instantiation bounded to 1024 threads (schedulers/device/grid.cuh).
  for (const uint32_t block : {992u, 1024u}) {
    RunConfig large_pic = pic(4000, 2, 150, 30);
    launch_knobs::block_size().set(large_pic, block);
    out.push_back({block == 1024 ? "pic_block_size_1024" : "pic_block_size_992", large_pic});
  }
  RunConfig large_poisson = pic(4000, 2, 150, 30);
  sb::pic::field().set(large_poisson, "poisson");
  sb::fields::grid().set(large_poisson, 32);
  sb::fields::field_solver().set(large_poisson, "host");
  launch_knobs::block_size().set(large_poisson, 1024);
  out.push_back({"pic_poisson_block_size_1024", large_poisson});
  RunConfig large_air = air("N2:0.8,O2:0.2", 300, 4000, 3);
  launch_knobs::block_size().set(large_air, 1024);
  out.push_back({"air_block_size_1024", large_air});
  RunConfig large_charge = space_charge;
  launch_knobs::block_size().set(large_charge, 1024);
  out.push_back({"air_space_charge_block_size_1024", large_charge});
  RunConfig large_mvp = base("mvp", 50'000, 400, 1024);
  sb::mvp::split_chance().set(large_mvp, 0.5);
  out.push_back({"mvp_block_size_1024", large_mvp});
  return out;
}

// cpu-serial's result per configuration, computed once.
const RunResult& reference(const Config& c) {
  static std::map<std::string, RunResult> cache;
  auto it = cache.find(c.name);
  if (it == cache.end()) {
    RunConfig r = c.run;
    r.scheduler = "cpu-serial";
    RunOptions keep;
    keep.keep_particles = true;
    it = cache.emplace(c.name, run(r, keep)).first;
  }
  return it->second;
}

// Expects what every engine shares with cpu-serial's run `ref` (slots excepted, which are an
// engine's own): counts, digest and the particles themselves. `what` names the engine and `name`
// the configuration in failures.
void expect_cpu_serial_result(const RunResult& r, const RunResult& ref, const std::string& what,
                              const std::string& name) {
  EXPECT_EQ(r.counts.final, ref.counts.final) << name;
  EXPECT_EQ(r.counts.spawned, ref.counts.spawned) << name;
  EXPECT_EQ(r.counts.removed, ref.counts.removed) << name;
  EXPECT_EQ(r.counts.particle_steps, ref.counts.particle_steps) << name;
  EXPECT_EQ(r.counts.peak, ref.counts.peak) << name;
  EXPECT_EQ(r.counts.peak_live, ref.counts.peak_live) << name;
  EXPECT_EQ(r.counts.record_bytes, ref.counts.record_bytes) << name;
  EXPECT_EQ(r.digest, ref.digest) << name;
  for (const std::string& line : r.particles->differences(*ref.particles, 5, what, "cpu-serial")) {
    ADD_FAILURE() << name << ": " << line;
  }
}

// Runs `c` (a configuration of `config` with its scheduler set) and expects cpu-serial's
// particles; `what` names the engine in failures and in the summary.
void expect_cpu_serial_particles(const RunConfig& c, const Config& config,
                                 const std::string& what) {
  const RunResult& ref = reference(config);
  RunOptions keep;
  keep.keep_particles = true;
  const RunResult r = run(c, keep);
  expect_cpu_serial_result(r, ref, what, config.name);
  // The slots a scheduler used are its own, but never more than the particles a phase held
  // (warp pools hand particles on to new slots only as far as others died without one).
  EXPECT_LE(r.counts.slots_used, r.counts.peak);
  EXPECT_GE(r.counts.slots_used, std::max(r.counts.initial, r.counts.final));
  testing_support::summary().push_back(
      {fmt::format("{} = cpu-serial", what),
       fmt::format("{} ({} final, {} particle-steps)", config.name, ref.counts.final,
                   ref.counts.particle_steps),
       r.digest == ref.digest && r.counts.final == ref.counts.final ? "identical" : "DIFFERENT"});
}

// A test name from its parts: letters and digits, the rest '_'.
std::string test_name(const std::string& text) {
  std::string name = text;
  for (char& ch : name)
    ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

using Case = std::tuple<std::string, Config>;

class GpuSchedulers : public testing::TestWithParam<Case> {};

TEST_P(GpuSchedulers, SameParticlesAsCpuSerial) {
  SB_REQUIRE_CUDA_DEVICE();
  const auto& [scheduler, config] = GetParam();
  RunConfig c = config.run;
  c.scheduler = scheduler;
  expect_cpu_serial_particles(c, config, scheduler);
}

INSTANTIATE_TEST_SUITE_P(EveryConfiguration, GpuSchedulers,
                         testing::Combine(testing::ValuesIn(gpu_schedulers()),
                                          testing::ValuesIn(configs())),
                         [](const testing::TestParamInfo<Case>& i) {
                           return test_name(std::get<0>(i.param) + "_" + std::get<1>(i.param).name);
                         });

// Every block size that is a multiple of 32, from 32 to 1024, on every sim and sim variant, with
// small populations: each run gives cpu-serial's particles (docs/performance.md, "Registers and
// block sizes").
std::vector<Config> small_configs_of_every_sim() {
  std::vector<Config> out;
  RunConfig toy = base("toy", 50, 200);
  sb::toy::layout().set(toy, "column");
  out.push_back({"toy", toy});
  RunConfig mvp = base("mvp", 300, 100);
  sb::mvp::split_chance().set(mvp, 2);
  out.push_back({"mvp", mvp});
  RunConfig walk = base("walk", 300, 100);
  sb::mvp::split_chance().set(walk, 1);
  out.push_back({"walk", walk});
  out.push_back({"pic", pic(300, 2, 40, 30)});
  RunConfig poisson = pic(300, 2, 40, 30);
  sb::pic::field().set(poisson, "poisson");
  sb::fields::grid().set(poisson, 16);
  sb::fields::field_solver().set(poisson, "host");
  out.push_back({"pic_poisson", poisson});
  out.push_back({"air", air("N2:0.8,O2:0.2", 300, 200, 1)});
  RunConfig charge = air_space_charge(200, 1, 16);
  sb::fields::field_solver().set(charge, "host");
  out.push_back({"air_space_charge", charge});
  RunConfig pic_single = pic(300, 2, 40, 30);
  sb::precision::parameter().set(pic_single, "single");
  out.push_back({"pic_single", pic_single});
  RunConfig air_mixed = air("N2:0.8,O2:0.2", 300, 200, 1);
  sb::precision::parameter().set(air_mixed, "mixed");
  out.push_back({"air_mixed", air_mixed});
  for (Config& c : out)
    c.run.capacity = 100'000;  // huge-iterate's grid spans the capacity at every step
  return out;
}

class GpuBlockSizes : public testing::TestWithParam<std::string> {};

TEST_P(GpuBlockSizes, EveryMultipleOf32OnEverySimGivesCpuSerialsParticles) {
  SB_REQUIRE_CUDA_DEVICE();
  for (const Config& config : small_configs_of_every_sim()) {
    const RunResult& ref = reference(config);
    uint32_t identical = 0;
    for (uint32_t block = 32; block <= 1024; block += 32) {
      RunConfig c = config.run;
      c.scheduler = GetParam();
      launch_knobs::block_size().set(c, block);
      const RunResult r = run(c);
      EXPECT_EQ(r.digest, ref.digest) << config.name << " at block size " << block;
      EXPECT_EQ(r.counts.particle_steps, ref.counts.particle_steps)
          << config.name << " at block size " << block;
      identical += r.digest == ref.digest ? 1 : 0;
    }
    testing_support::summary().push_back(
        {fmt::format("{} = cpu-serial", GetParam()),
         fmt::format("{}, block sizes 32, 64, ..., 1024", config.name),
         identical == 32 ? "identical at all 32" : fmt::format("DIFFERENT at {}", 32 - identical)});
  }
}

INSTANTIATE_TEST_SUITE_P(EveryGpuScheduler, GpuBlockSizes, testing::ValuesIn(gpu_schedulers()),
                         [](const testing::TestParamInfo<std::string>& i) {
                           return test_name(i.param);
                         });

// A field solved by cuFFT (the default on a GPU): cuFFT's rounding is not FFTW's, so the runs
// need not give cpu-serial's digest, but every GPU scheduler gives one digest among themselves,
// as the deterministic deposit, field and gather make it (docs/physics.md).
void expect_one_gpu_digest(RunConfig c, const std::string& what) {
  c.scheduler = "dynamic-warp";
  const RunResult first = run(c);
  for (const std::string& scheduler : gpu_schedulers()) {
    c.scheduler = scheduler;
    const RunResult r = run(c);
    EXPECT_EQ(r.digest, first.digest) << scheduler;
    EXPECT_EQ(r.counts.particle_steps, first.counts.particle_steps) << scheduler;
    testing_support::summary().push_back({fmt::format("{} = dynamic-warp", scheduler), what,
                                          r.digest == first.digest ? "identical" : "DIFFERENT"});
  }
}

TEST(GpuPoissonField, EveryGpuSchedulerGivesOneDigestWithTheDeviceSolver) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c = pic(20'000, 3, 200, 30);
  sb::pic::field().set(c, "poisson");
  sb::fields::grid().set(c, 64);
  expect_one_gpu_digest(c, "pic, --field poisson, cuFFT solve (64^3)");
}

TEST(GpuSpaceCharge, EveryGpuSchedulerGivesOneDigestWithTheDeviceSolver) {
  SB_REQUIRE_CUDA_DEVICE();
  const RunConfig c = air_space_charge(2000, 4, 32);
  expect_one_gpu_digest(c, "air, --space-charge, cuFFT solve (32^3)");
}

// The bound's reference run, made once (as the point runner makes it for a point's warm-ups and
// repetitions), is dynamic-warp's run of the configuration, and every run of the bound that shares
// it does the particle-steps of a bound that makes its own; a scheduler that is not a yardstick
// has none.
TEST(GpuBound, SharedReferenceIsDynamicWarpsRunAndServesEveryRepetition) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c = base("mvp", 20'000, 100);
  c.scheduler = "dynamic-warp";
  const RunResult warp = run(c);
  EXPECT_EQ(yardstick_reference(resolve(c)), nullptr);
  c.scheduler = "bound";
  const RunSpec spec = resolve(c);
  RunOptions shared;
  shared.reference = yardstick_reference(spec);
  ASSERT_NE(shared.reference, nullptr);
  ASSERT_NE(shared.reference->particles, nullptr);
  EXPECT_EQ(shared.reference->digest, warp.digest);
  EXPECT_EQ(shared.reference->particles->size(), warp.counts.final);
  const RunResult own = run(spec);
  for (int repetition = 0; repetition < 3; ++repetition) {
    const RunResult r = run(spec, shared);
    EXPECT_EQ(r.counts.particle_steps, warp.counts.particle_steps) << repetition;
    EXPECT_EQ(r.counts.particle_steps, own.counts.particle_steps) << repetition;
    EXPECT_GT(r.time_ms, 0.0) << repetition;
  }
}

// A mesh larger than the device's free memory is refused before the run, naming the bytes: the
// test holds all the free memory but 2 GiB, where the particle slots (640 MB) fit and the 512^3
// field (six arrays of 1 GiB and cuFFT's) does not.
TEST(GpuPoissonField, AMeshThatDoesNotFitIsRefusedBeforeTheRun) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c = pic(1000, 1, 10, 30);
  sb::pic::field().set(c, "poisson");
  sb::fields::grid().set(c, 512);
  c.scheduler = "dynamic-warp";
  const DeviceMemory m = device_memory();
  ASSERT_GT(m.free_bytes, 4ull << 30) << m.describe();
  const DeviceBuffer<unsigned char> held(m.free_bytes - (2ull << 30), "memory the test holds");
  try {
    run(c);
    ADD_FAILURE() << "a 512^3 mesh ran in 2 GiB";
  } catch (const AllocationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--grid 512 (the Poisson field) needs "), std::string::npos) << what;
    EXPECT_NE(what.find(" free of "), std::string::npos) << what;
  }
}

// Each tuning policy of a scheduler but the one `default` means (which the cases above run),
// with one configuration of each sim: the policies change the schedule, never the particles.
struct PolicyCase {
  std::string scheduler;
  std::string policy;
  Config config;
};

void PrintTo(const PolicyCase& c, std::ostream* os) {
  *os << c.scheduler << " " << c.policy << " " << c.config.name;
}

std::vector<PolicyCase> policy_cases() {
  // pic's: more particles than resident threads, so that warps hand lanes on (min_lanes).
  // And pic and air at blocks of 1024, where each policy's instantiation for the largest blocks
  // runs.
  const std::set<std::string> one_per_sim = {
      "toy_column_waves", "heavy_spawning",      "pic_more_particles_than_threads",
      "air_near_balance", "pic_block_size_1024", "air_block_size_1024"};
  std::vector<PolicyCase> out;
  for (const SchedulerEntry& e : all_schedulers()) {
    for (const PolicyInfo& p : e.policies.named) {
      if (p.name == e.policies.defaults.front().policy) continue;
      for (Config config : configs()) {
        if (one_per_sim.count(config.name) == 0) continue;
        // cpu-sync's pool-64 keeps 64 of air's 120-byte electrons a warp: a block of 1024 needs
        // more shared memory than sm_90 has (GpuSharedMemory below): 896, the most that fits.
        if (p.name == "pool-64" && std::string(config.name) == "air_block_size_1024") {
          config.name = "air_block_size_896";
          launch_knobs::block_size().set(config.run, 896);
        }
        out.push_back({e.name, p.name, config});
      }
    }
  }
  return out;
}

class GpuPolicies : public testing::TestWithParam<PolicyCase> {};

TEST_P(GpuPolicies, SameParticlesAsCpuSerial) {
  SB_REQUIRE_CUDA_DEVICE();
  const PolicyCase& p = GetParam();
  RunConfig c = p.config.run;
  c.scheduler = p.scheduler;
  find_scheduler(p.scheduler).policies.parameter.set(c, p.policy);
  expect_cpu_serial_particles(c, p.config, p.scheduler + " --policy " + p.policy);
}

INSTANTIATE_TEST_SUITE_P(EveryNonDefaultPolicy, GpuPolicies, testing::ValuesIn(policy_cases()),
                         [](const testing::TestParamInfo<PolicyCase>& i) {
                           return test_name(i.param.scheduler + "_" + i.param.policy + "_" +
                                            i.param.config.name);
                         });

class GpuCompaction : public testing::TestWithParam<std::string> {};

// Every way of removing the dead leaves the particles cpu-serial leaves.
TEST_P(GpuCompaction, SameParticlesAsCpuSerial) {
  SB_REQUIRE_CUDA_DEVICE();
  const Config config{"pic_chance_60_three_phases", pic(2000, 3, 150, 60)};
  const RunResult& ref = reference(config);
  for (const char* scheduler : {"dynamic-warp", "cpu-sync"}) {
    RunConfig c = config.run;
    c.scheduler = scheduler;
    launch_knobs::compaction().set(c, GetParam());
    const RunResult r = run(c);
    EXPECT_EQ(r.digest, ref.digest) << scheduler;
    EXPECT_EQ(r.counts.final, ref.counts.final) << scheduler;
    EXPECT_EQ(r.counts.removed, ref.counts.removed) << scheduler;
    testing_support::summary().push_back(
        {fmt::format("compaction {} with {} = cpu-serial", GetParam(), scheduler),
         fmt::format("{} ({} removed)", config.name, ref.counts.removed),
         r.digest == ref.digest ? "identical" : "DIFFERENT"});
  }
}

INSTANTIATE_TEST_SUITE_P(EveryVariant, GpuCompaction, testing::ValuesIn(compaction_variants()));

// In-place compaction keeps one particle array; the others keep two.
TEST(GpuCompactionMemory, InPlaceHoldsOneParticleArray) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c = pic(2000, 2, 100, 60);
  c.scheduler = "dynamic-block";
  const double array = static_cast<double>(c.capacity) * sizeof(PicSim::Particle);
  launch_knobs::compaction().set(c, "inplace");
  const RunResult in_place = run(c);
  launch_knobs::compaction().set(c, "cub");
  const RunResult two_arrays = run(c);
  EXPECT_LT(static_cast<double>(in_place.device_bytes), 1.1 * array);
  EXPECT_GE(static_cast<double>(two_arrays.device_bytes), 2.0 * array);
  testing_support::summary().push_back(
      {"device memory, pic, capacity 4e6", "inplace vs cub compaction",
       fmt::format("{:.0f} MB vs {:.0f} MB (one array: {:.0f} MB)",
                   static_cast<double>(in_place.device_bytes) / 1e6,
                   static_cast<double>(two_arrays.device_bytes) / 1e6, array / 1e6)});
}

// Streamed runs (schedulers/device/batches.cuh): the particles in pinned host memory and each
// phase run through the device in batches of 1000 slots give cpu-serial's particles and
// observables with every GPU scheduler, on every sim that streams: those without grid work
// between phases, and pic, whose mock and Poisson fields gather their grids in passes over the
// batches. mvp's children outgrow a batch's first share, so its batches also run again in halves.
std::vector<Config> streamed_configs() {
  std::vector<Config> out;
  // Names of their own: reference() keeps cpu-serial's result by name.
  out.push_back({"streamed_toy", base("toy", 3000, 2500)});
  RunConfig mvp = base("mvp", 2000, 100);
  sb::mvp::split_chance().set(mvp, 2);
  out.push_back({"streamed_mvp", mvp});
  RunConfig walk = base("walk", 3000, 100);
  sb::mvp::split_chance().set(walk, 1);
  out.push_back({"streamed_walk", walk});
  out.push_back({"streamed_air", air("N2:0.8,O2:0.2", 400, 3000, 3)});
  RunConfig air_single = air("N2:0.8,O2:0.2", 400, 3000, 3);
  sb::precision::parameter().set(air_single, "single");
  out.push_back({"streamed_air_single_precision", air_single});
  out.push_back({"streamed_pic", pic(3000, 3, 100, 10)});
  RunConfig pic_mixed = pic(3000, 3, 100, 10);
  sb::precision::parameter().set(pic_mixed, "mixed");
  out.push_back({"streamed_pic_mixed_precision", pic_mixed});
  RunConfig pic_poisson = pic(3000, 2, 50, 10);
  sb::pic::field().set(pic_poisson, "poisson");
  sb::fields::grid().set(pic_poisson, 32);
  sb::fields::field_solver().set(pic_poisson, "host");
  out.push_back({"streamed_pic_poisson", pic_poisson});
  for (Config& c : out) {
    c.run.capacity = 100'000;
    launch_knobs::batch().set(c.run, 1000);
  }
  return out;
}

class GpuStreamed : public testing::TestWithParam<std::string> {};

TEST_P(GpuStreamed, BatchesOf1000SlotsGiveCpuSerialsParticlesAndObservables) {
  SB_REQUIRE_CUDA_DEVICE();
  for (const Config& config : streamed_configs()) {
    const RunResult& ref = reference(config);
    RunConfig c = config.run;
    c.scheduler = GetParam();
    RunOptions keep;
    keep.keep_particles = true;
    const RunResult r = run(c, keep);
    ASSERT_TRUE(r.streaming) << config.name;
    EXPECT_EQ(r.streaming->batch_slots, 1000u) << config.name;
    EXPECT_GT(r.streaming->batches, 2u) << config.name;
    EXPECT_LE(r.counts.slots_used, 1000u) << config.name;
    expect_cpu_serial_result(r, ref, GetParam() + " streamed", config.name);
    EXPECT_EQ(r.observables, ref.observables) << config.name;
    testing_support::summary().push_back(
        {fmt::format("{} streamed = cpu-serial", GetParam()),
         fmt::format("{}, {} batches of 1000 slots", config.name, r.streaming->batches),
         r.digest == ref.digest && r.counts.final == ref.counts.final ? "identical" : "DIFFERENT"});
  }
}

INSTANTIATE_TEST_SUITE_P(EveryGpuScheduler, GpuStreamed, testing::ValuesIn(gpu_schedulers()),
                         [](const testing::TestParamInfo<std::string>& i) {
                           return test_name(i.param);
                         });

// A particle whose children alone overflow a batch's slots, and survivors that overflow the host
// store, are capacity errors naming the slots that were short.
TEST(GpuStreamedCapacity, OneParticlesChildrenPastABatchAreAnError) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c = base("mvp", 10, 100);
  sb::mvp::split_chance().set(c, 10);  // some 13,000 descendants per particle
  c.scheduler = "dynamic-warp";
  launch_knobs::batch().set(c, 1000);
  try {
    run(c);
    FAIL() << "expected a CapacityError";
  } catch (const CapacityError& e) {
    EXPECT_EQ(e.capacity(), 1000u);
    EXPECT_NE(std::string(e.what()).find("raise --batch"), std::string::npos) << e.what();
  }
}

TEST(GpuStreamedCapacity, SurvivorsPastTheHostStoreAreAnError) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c = base("mvp", 2000, 100);
  sb::mvp::split_chance().set(c, 2);  // some 15,000 at the end
  c.scheduler = "dynamic-block";
  c.capacity = 5000;
  launch_knobs::batch().set(c, 1000);
  try {
    run(c);
    FAIL() << "expected a CapacityError";
  } catch (const CapacityError& e) {
    EXPECT_EQ(e.capacity(), 5000u);
    EXPECT_GT(e.needed(), 5000u);
  }
}

class GpuCapacity : public testing::TestWithParam<std::string> {};

TEST_P(GpuCapacity, OverflowIsAnErrorNotADropOrAHang) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c = base("toy", 100, 2000);  // every particle splits once: 200 needed
  c.scheduler = GetParam();
  c.capacity = 150;
  launch_knobs::timeout().set(c, 60);
  try {
    run(c);
    FAIL() << "expected a CapacityError";
  } catch (const CapacityError& e) {
    EXPECT_EQ(e.capacity(), 150u);
    EXPECT_GT(e.needed(), 150u);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryGpuScheduler, GpuCapacity, testing::ValuesIn(gpu_schedulers()),
                         [](const testing::TestParamInfo<std::string>& i) {
                           std::string name = i.param;
                           for (char& ch : name)
                             ch = ch == '-' ? '_' : ch;
                           return name;
                         });

// Slots that follow the population: pic with a turnover of seven particles held per particle alive
// (1.41 million in a phase around 200,000 alive) runs in 2.25 slots per live particle with
// dynamic-warp, which reuses the slots of the dead (schedulers/device/slot_recycler.cuh), and with
// its spill and queue policies. The capacity bounds the slots a scheduler used, not the particles
// it ran: static-full, which stores every particle, would need 1.41 million. The queue policy,
// whose warps share their dead slots in groups (shared_dead_slots.cuh), stays within 1.25 slots per
// live particle (the project's target for slot reuse, which cpu-serial is held to too:
// tests/cpu/test_engines.cpp).
TEST(GpuSlotReuse, DynamicWarpRunsPicTurnoverInFewerSlotsThanItHolds) {
  SB_REQUIRE_CUDA_DEVICE();
  const Config config{"pic_more_particles_than_threads", pic(200'000, 2, 60, 20)};
  const RunResult& ref = reference(config);
  for (const char* policy : {"default", "spill", "queue"}) {
    RunConfig c = config.run;
    c.scheduler = "dynamic-warp";
    find_scheduler(c.scheduler).policies.parameter.set(c, policy);
    c.capacity = 450'000;
    ASSERT_GT(ref.counts.peak, 3 * c.capacity);
    const RunResult r = run(c);
    EXPECT_EQ(r.digest, ref.digest) << policy;
    EXPECT_EQ(r.counts.peak, ref.counts.peak) << policy;
    EXPECT_LE(r.counts.slots_used, c.capacity) << policy;
    if (std::string_view(policy) == "queue") {
      EXPECT_LE(r.counts.slots_used, ref.counts.peak_live * 5 / 4);
    }
    testing_support::summary().push_back(
        {"slot reuse",
         fmt::format("dynamic-warp --policy {}: {} particles held, {} alive", policy,
                     ref.counts.peak, ref.counts.peak_live),
         fmt::format("{} slots, {:.2f} per live particle", r.counts.slots_used,
                     slots_per_live(r.counts))});
  }
}

// dynamic-block and cpu-sync reuse their warps' dead slots too, for pooled particles that end
// alive (run_family, schedulers/device/pool_agent.cuh), on the same turnover: cpu-serial's
// particles, and the deaths and steps of the dead particles overwritten counted as held
// (removed, particle-steps, peak), within the slots of a scheduler that stores every particle
// once (the capacity: SlotTally::spare_slots keeps the hand-ons within it, each reuse counted as
// a pooled death). How far below that their slots lie depends on the schedule and is reported in
// the test summary, not asserted.
TEST(GpuSlotReuse, DynamicBlockAndCpuSyncRunPicTurnoverWithinTheParticlesHeld) {
  SB_REQUIRE_CUDA_DEVICE();
  const Config config{"pic_more_particles_than_threads", pic(200'000, 2, 60, 20)};
  const RunResult& ref = reference(config);
  for (const char* scheduler : {"dynamic-block", "cpu-sync"}) {
    RunConfig c = config.run;
    c.scheduler = scheduler;
    c.capacity = ref.counts.peak;
    const RunResult r = run(c);
    EXPECT_EQ(r.digest, ref.digest) << scheduler;
    EXPECT_EQ(r.counts.peak, ref.counts.peak) << scheduler;
    EXPECT_EQ(r.counts.removed, ref.counts.removed) << scheduler;
    EXPECT_EQ(r.counts.particle_steps, ref.counts.particle_steps) << scheduler;
    EXPECT_LE(r.counts.slots_used, c.capacity) << scheduler;
    testing_support::summary().push_back(
        {"slot reuse",
         fmt::format("{}: {} particles held, {} alive", scheduler, ref.counts.peak,
                     ref.counts.peak_live),
         fmt::format("{} slots, {:.2f} per live particle", r.counts.slots_used,
                     slots_per_live(r.counts))});
  }
}

// A block whose warps' pools need more shared memory than a block may have is a run error naming
// the block size, not a CUDA error: cpu-sync's pool-64 keeps 64 children of air's space charge
// (144 bytes each) and 64 dead slots per warp, 311,808 bytes at 1024 threads, more than sm_90's
// 227 KB (pool_dispatch.cuh, require_pools_fit).
TEST(GpuSharedMemory, PoolsTooLargeForABlockAreARunError) {
  SB_REQUIRE_CUDA_DEVICE();
  int device = 0, most = 0;
  SB_CUDA_CHECK(cudaGetDevice(&device));
  SB_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (most >= 311'808) GTEST_SKIP() << "this device's blocks hold " << most << " bytes";
  RunConfig c = air_space_charge(200, 1, 16);
  sb::fields::field_solver().set(c, "host");
  c.scheduler = "cpu-sync";
  find_scheduler(c.scheduler).policies.parameter.set(c, "pool-64");
  launch_knobs::block_size().set(c, 1024);
  try {
    run(c);
    ADD_FAILURE() << "pools of 311,808 bytes ran in a block of " << most;
  } catch (const RunError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cpu-sync: a block of 1024 threads does not fit on one SM"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("shared memory"), std::string::npos) << what;
  }
  testing_support::summary().push_back({"pools too large",
                                        "cpu-sync --policy pool-64, air --space-charge, block 1024",
                                        "run error"});
}

// cpu-sync's last generations (cpu_sync.cu, CpuSync::dying_out), where a tail runs up to two
// waves of resident threads (an H100 holds 135,168 threads of cpu-sync's kernel at blocks of 128):
// the default's tails and no-tail's launches give cpu-serial's particles.
// - mvp: a population that fills more than two waves, then dies out below that; its last
//   generations fit in one tail.
// - toy, 2e4 particles in a column, 1900 steps: the generations grow to 1.46 million, then hold
//   540,000, 243,000 (a tail starts), 86,000, 24,000, ... 359,000 particles from the tail's on,
//   more than it runs: it stops at its end, and the rest make a generation that is a second tail.
TEST(GpuCpuSyncTail, LastGenerationsGiveCpuSerialsParticles) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig mvp = base("mvp", 400'000, 200);
  sb::mvp::split_chance().set(mvp, 1);
  mvp.capacity = 10'000'000;
  RunConfig toy = base("toy", 20'000, 1900);
  sb::toy::layout().set(toy, "column");
  toy.capacity = 10'000'000;
  for (const Config& config : {Config{"mvp_dying_out", mvp}, Config{"toy_tail_ends", toy}}) {
    RunConfig c = config.run;
    c.scheduler = "cpu-sync";
    for (const char* policy : {"default", "no-tail"}) {
      find_scheduler(c.scheduler).policies.parameter.set(c, policy);
      expect_cpu_serial_particles(c, config, std::string("cpu-sync --policy ") + policy);
    }
  }
}

// The schedulers of whole cycles run many of ccp's steps in one launch, the field solved inside
// it: persistent-cycle in launches of 1, 7 and the most phases, graph-cycle replaying graphs of
// 1 step, of 7 (which a launch's steps do not fill) and of more steps than a launch has. With one
// replica and with four, every length gives cpu-serial's run (particles, counts, the observables
// of every RF period and the benchmark's summary), however the steps fall into launches and
// graphs. (Over several ranks they run a phase a launch: test_ranks.cpp.)
struct CycleLengths {
  const char* scheduler;
  const char* key;  // the scheduler's declared length, its first
  std::vector<uint64_t> lengths;
};

class GpuCycleLengths : public testing::TestWithParam<CycleLengths> {};

TEST_P(GpuCycleLengths, EveryLengthGivesCpuSerialsRun) {
  SB_REQUIRE_CUDA_DEVICE();
  const CycleLengths& param = GetParam();
  const DeclaredParameter& length = *find_scheduler(param.scheduler).declared.front();
  ASSERT_EQ(length.key, param.key);
  for (const uint64_t replicas : {1u, 4u}) {
    const RunConfig c = ccp_replicas(4000 * replicas, 32, 200, 3, replicas);
    const Config config{replicas == 1 ? "ccp_case1_lengths" : "ccp_case1_4_replicas_lengths", c};
    const RunResult& ref = reference(config);
    ASSERT_TRUE(ref.summary);
    for (const uint64_t n : param.lengths) {
      RunConfig one = c;
      one.scheduler = param.scheduler;
      length.set(one, n);
      RunOptions keep;
      keep.keep_particles = true;
      const RunResult r = run(one, keep);
      const std::string what = fmt::format("{} {}", length.flag, n);
      expect_cpu_serial_result(r, ref, param.scheduler, std::string(config.name) + ", " + what);
      EXPECT_EQ(r.observables, ref.observables) << what;
      ASSERT_TRUE(r.summary) << what;
      EXPECT_EQ(r.summary->values, ref.summary->values) << what;
      EXPECT_EQ(r.summary->profiles, ref.summary->profiles) << what;
      testing_support::summary().push_back(
          {fmt::format("{} = cpu-serial", param.scheduler),
           fmt::format("{}, {} ({} final)", config.name, what, ref.counts.final),
           r.digest == ref.digest && r.observables == ref.observables ? "identical"
                                                                       : "DIFFERENT"});
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryCycleScheduler, GpuCycleLengths,
    testing::Values(CycleLengths{"persistent-cycle", "launch_phases", {1, 7, 1u << 20}},
                    CycleLengths{"graph-cycle", "graph_steps", {1, 7, 4096}}),
    [](const testing::TestParamInfo<CycleLengths>& i) {
      return std::string(i.param.key);
    });

// persistent-cycle's grids and barriers: a grid smaller than the persistent one, and the grid as
// one thread-block cluster with the cluster's barrier (the largest cluster and one of 4 blocks),
// give cpu-serial's run of ccp with four replicas, in one launch and in launches of 7 phases.
TEST(GpuPersistentCycle, EveryGridAndBarrierGivesCpuSerialsRun) {
  SB_REQUIRE_CUDA_DEVICE();
  const SchedulerEntry& cycle = find_scheduler("persistent-cycle");
  const auto knob = [&](const std::string& key) -> const DeclaredParameter& {
    for (const DeclaredParameter* p : cycle.declared) {
      if (p->key == key) return *p;
    }
    throw std::logic_error("persistent-cycle declares no " + key);
  };
  const RunConfig c = ccp_replicas(16000, 32, 200, 3, 4);
  const Config config{"ccp_case1_4_replicas_grids", c};
  const RunResult& ref = reference(config);
  ASSERT_TRUE(ref.summary);
  struct Shape {
    const char* barrier;
    const char* blocks;
    uint64_t phases;
  };
  for (const Shape& shape : {Shape{"grid", "8", 1u << 20}, Shape{"grid", "3", 7},
                             Shape{"cluster", "fill", 1u << 20}, Shape{"cluster", "4", 7}}) {
    RunConfig one = c;
    one.scheduler = "persistent-cycle";
    knob("cycle_barrier").set(one, shape.barrier);
    knob("cycle_blocks").set(one, shape.blocks);
    knob("launch_phases").set(one, shape.phases);
    RunOptions keep;
    keep.keep_particles = true;
    const RunResult r = run(one, keep);
    const std::string what = fmt::format("--cycle-barrier {} --cycle-blocks {}, {} phases a launch",
                                         shape.barrier, shape.blocks, shape.phases);
    expect_cpu_serial_result(r, ref, "persistent-cycle", std::string(config.name) + ", " + what);
    EXPECT_EQ(r.observables, ref.observables) << what;
    ASSERT_TRUE(r.summary) << what;
    EXPECT_EQ(r.summary->values, ref.summary->values) << what;
    testing_support::summary().push_back(
        {"persistent-cycle = cpu-serial", fmt::format("{}, {}", config.name, what),
         r.digest == ref.digest && r.observables == ref.observables ? "identical" : "DIFFERENT"});
  }
}

// The cycle schedulers where the grid work's shared memory and the kernel's own pass 48 KB: ccp's
// deposits of 16 replicas of 129 nodes are summed in 33 KB a block, beside the solve's 16 KB. Both
// give cpu-serial's run.
TEST(GpuCycleSharedMemory, SixteenReplicasOfACaseMeshGiveCpuSerialsRun) {
  SB_REQUIRE_CUDA_DEVICE();
  const RunConfig c = ccp_replicas(16 * 400, 128, 100, 2, 16);
  const Config config{"ccp_case1_16_replicas_128_cells", c};
  const RunResult& ref = reference(config);
  ASSERT_TRUE(ref.summary);
  for (const char* scheduler : {"persistent-cycle", "graph-cycle"}) {
    RunConfig one = c;
    one.scheduler = scheduler;
    RunOptions keep;
    keep.keep_particles = true;
    const RunResult r = run(one, keep);
    expect_cpu_serial_result(r, ref, scheduler, config.name);
    EXPECT_EQ(r.observables, ref.observables) << scheduler;
    ASSERT_TRUE(r.summary) << scheduler;
    EXPECT_EQ(r.summary->values, ref.summary->values) << scheduler;
    testing_support::summary().push_back(
        {fmt::format("{} = cpu-serial", scheduler), config.name,
         r.digest == ref.digest && r.observables == ref.observables ? "identical" : "DIFFERENT"});
  }
}

class GpuWatchdog : public testing::TestWithParam<std::string> {};

// A run that outlasts --timeout fails with an error naming the scheduler and configuration,
// and returns promptly: its kernels stop when the watchdog asks.
TEST_P(GpuWatchdog, EndsARunThatDoesNotFinishInTime) {
  SB_REQUIRE_CUDA_DEVICE();
  RunConfig c = base("mvp", 2'000'000, 20'000);
  c.capacity = 12'000'000;
  sb::mvp::split_chance().set(c, 0.005);
  c.scheduler = GetParam();
  launch_knobs::timeout().set(c, 0.1);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    run(c);
    FAIL() << "expected the watchdog to fail the run";
  } catch (const RunError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("watchdog"), std::string::npos) << what;
    EXPECT_NE(what.find("mvp with " + GetParam()), std::string::npos) << what;
    EXPECT_NE(what.find("init_n 2000000"), std::string::npos) << what;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  testing_support::summary().push_back({fmt::format("watchdog ends {}", GetParam()),
                                        "timeout 0.1 s (the least --timeout accepts) on a ~1 s run",
                                        fmt::format("ended after {:.2f} s", s)});
}

INSTANTIATE_TEST_SUITE_P(PersistentSchedulers, GpuWatchdog,
                         testing::Values("static-full", "dynamic-thread", "dynamic-block",
                                         "dynamic-warp", "gpu-iterate-global",
                                         "gpu-iterate-organised", "persistent-cycle",
                                         "graph-cycle"),
                         [](const testing::TestParamInfo<std::string>& i) {
                           std::string name = i.param;
                           for (char& ch : name)
                             ch = ch == '-' ? '_' : ch;
                           return name;
                         });

}  // namespace
}  // namespace sb
