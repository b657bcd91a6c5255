// pic (seed 003 §3.4, docs/design.md §5): electrons in a 512^3 grid of 1 cm cells. Each poisson
// step (a phase) counts the particles per cell, turns neighbouring counts into a float32
// acceleration per cell (a mock field solve) and gives each particle its cell's; then M
// mobility steps: leapfrog, death outside the grid, and a Monte Carlo collision whose split and
// remove chances depend on the energy level. The dead are removed after the mobility steps.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/draws.hpp"
#include "core/image.hpp"
#include "core/particle.hpp"
#include "core/precision.hpp"
#include "core/run_config.hpp"
#include "core/sim_interface.hpp"
#include "sims/pic/constants.hpp"
#include "sims/pic/cross_sections.hpp"
#include "sims/pic/grid.hpp"

namespace sb {
namespace pic {

// A particle's fields, in the order of its record, for visit().
template <class P, class F>
SB_HD void visit_fields(const P& p, F&& f) {
  f("x", p.x);
  f("y", p.y);
  f("z", p.z);
  f("vx", p.vx);
  f("vy", p.vy);
  f("vz", p.vz);
  f("ax", p.ax);
  f("ay", p.ay);
  f("az", p.az);
  p.tag.visit(f);
}

// A particle in precision P (core/precision.hpp): positions in P::Coordinate, velocities in
// P::Real; the cell's acceleration is a float in every precision (the grid work computes it in
// float). 80 bytes in double, 56 in single.
template <class P>
struct alignas(sizeof(typename P::Real) == 8 ? 16 : 8) ParticleIn {
  typename P::Coordinate x, y, z;  // m
  typename P::Real vx, vy, vz;     // m/s
  float ax, ay, az;                // m/s^2, the cell's at the start of the phase
  ParticleTag tag;

  template <class F>
  SB_HD void visit(F&& f) const {
    visit_fields(*this, f);
  }
};

// Mixed: 68 bytes of fields and a spare word, zero, that rounds the record to a whole number of
// its doubles in the open (hidden padding would escape digests and copies).
template <>
struct alignas(8) ParticleIn<precision::Mixed> {
  double x, y, z;
  float vx, vy, vz;
  float ax, ay, az;
  ParticleTag tag;
  uint32_t spare;

  template <class F>
  SB_HD void visit(F&& f) const {
    visit_fields(*this, f);
    f("spare", spare);
  }
};

using Particle = ParticleIn<precision::Double>;
static_assert(sizeof(Particle) == 80, "no padding: digests and copies see every byte");
static_assert(sizeof(ParticleIn<precision::Mixed>) == 72, "no hidden padding");
static_assert(sizeof(ParticleIn<precision::Single>) == 56, "no hidden padding");

// A level's collision as draw thresholds (percent_threshold): draw < split splits,
// split <= draw < collide removes.
struct Chances {
  uint64_t split;
  uint64_t collide;
};

// One energy level as a step reads it: its energy range [floor, ceiling) and its thresholds, in
// one 32-byte sector, so that finding the level and its chances is one memory transaction when
// the logarithm's guess is right (it nearly always is).
struct alignas(32) Level {
  double floor;    // the smallest energy of the level, 10^(22 L / N - 6); level 0: 0
  double ceiling;  // the next level's floor; infinity for the last level
  Chances chances;
};
static_assert(sizeof(Level) == 32, "one sector per level");

struct Params {
  const Level* levels;  // kLevels, from level_table()
};

// The float logarithm's guess at the level of energy e (below): right but for energies within
// a float's rounding of a level's floor. Not a number and energies below level 1 guess 0.
SB_HD inline uint32_t level_guess(double e) {
  const float guess = (log10f(static_cast<float>(e)) + 6.0f) * (kLevels / 22.0f);
  return !(guess >= 1.0f) ? 0 : guess > kLevels - 1.0f ? kLevels - 1 : static_cast<uint32_t>(guess);
}

// level = clamp(trunc((log10(E) + 6) * N / 22), 0, N - 1), defined by the host-computed floors:
// the largest L with E >= floor[L]. The level `guess` is tried first, its entry `entry` as
// given; comparisons with the table decide, identically on host and device, whatever the guess.
// Sets `entry` to the level's table entry.
SB_HD inline uint32_t energy_level(double e, const Level* levels, uint32_t guess, Level& entry) {
  if (entry.floor <= e && e < entry.ceiling) return guess;
  uint32_t level = level_guess(e);  // a wrong guess may be far off: the logarithm's is near
  entry = levels[level];
  while (level > 0 && e < entry.floor)
    entry = levels[--level];
  while (level + 1 < kLevels && e >= entry.ceiling)
    entry = levels[++level];
  return level;
}

// The same, from the logarithm's guess.
SB_HD inline uint32_t energy_level(double e, const Level* levels, Level& entry) {
  const uint32_t guess = level_guess(e);
  entry = levels[guess];
  return energy_level(e, levels, guess, entry);
}

SB_HD inline bool outside_grid(double x) {
  return x < 0.0 || x >= kCells * kCellSize;
}

// pic's parameters (defined in pic.cpp).
inline constexpr const char* kSynthetic = "synthetic";  // --cross-section: the seed's table
const DeclaredParameter& poisson_steps();
const DeclaredParameter& mobility_steps();
const DeclaredParameter& cross_section();     // a file name, or kSynthetic
const DeclaredParameter& collision_chance();  // optional: a constant chance instead of a table
// --grid and --field-solver of the Poisson field: fields/mesh_nodes.hpp, shared with air.
inline constexpr int kGridNodes = 512;       // the default: cells of 1 cm
inline constexpr int kMostGridNodes = 1024;  // 6 arrays of 8 GiB on the device

// The tables behind Params, on the host: the floors, the thresholds, and both as Levels.
std::vector<double> level_floors();
std::vector<Chances> chance_thresholds(const CrossSections& cs);
std::vector<Level> level_table(const CrossSections& cs);

}  // namespace pic

namespace pic {

// The level table and the phases, built once per run.
class Setup {
 public:
  explicit Setup(const RunConfig& c);
  PhasePlan phases() const { return plan_; }
  const std::vector<Level>& levels() const { return levels_; }

 private:
  std::vector<Level> levels_;
  PhasePlan plan_;
};

// The cross sections a run reads, as a file that --cross-section reads back.
SimTable table(const RunConfig& c);

// The mock's grid work between phases, on the host (pic.cpp instantiates it for every precision):
// counts per cell over every rank, an acceleration per cell, and each particle given its cell's.
template <class Particle>
void accelerate_on_host(std::vector<Particle>& ps);

// The particle density per cell summed along z, over the occupied cells and a margin, on a
// logarithmic colour scale (seed §4.1); each cell a square of pixels, high y at the top.
template <class Particle>
Image picture(const std::vector<Particle>& ps);

}  // namespace pic

// The mock field's variant of pic (--field mock, the default) in precision P (--precision,
// core/precision.hpp); sims/pic/pic_family.hpp lists the three, and the Poisson field's, which
// shares the double one's members but its field.
template <class P>
struct PicSimIn {
  using Particle = pic::ParticleIn<P>;
  using Params = pic::Params;
  using Coordinate = typename P::Coordinate;
  using Real = typename P::Real;

  static constexpr const char* kName = "pic";
  // Its step takes more registers than a block of 1024 threads leaves, in every precision
  // (core/sim_interface.hpp).
  static constexpr bool kLargeStep = true;
  static constexpr const char* kDescription =
      "mock PIC-MCC electrons: grid acceleration per poisson step, leapfrog, split/remove "
      "collisions by energy level (seed 003 §3.4)";
  static SimTable table(const RunConfig& c) { return pic::table(c); }

  using Setup = pic::Setup;
  // The grid work between phases, on the host; on the device it streams (passes over the
  // particles, sims/pic/device_state.cuh).
  class HostState {
   public:
    static constexpr bool kStreamsPhaseWork = true;
    explicit HostState(std::shared_ptr<const Setup> setup) : setup_(std::move(setup)) {}
    Params params() const { return {setup_->levels().data()}; }
    void before_phase(std::vector<Particle>& ps, PhaseWindow) { pic::accelerate_on_host(ps); }

    const std::vector<pic::Level>& levels() const { return setup_->levels(); }

   private:
    std::shared_ptr<const Setup> setup_;
  };
  class DeviceState;  // sims/pic/device_state.cuh

  // Uniform in [226 h, 288 h)^3, at rest: the same draws in every precision, rounded to it.
  static Particle initial(uint64_t index, const Params&, DrawKey key) {
    const Philox4x32Output a = draw_block(key, index, DrawStream::kInit, 0);
    const Philox4x32Output b = draw_block(key, index, DrawStream::kInit, 1);
    const auto coordinate = [](uint32_t hi, uint32_t lo) {
      const double u = static_cast<double>(((uint64_t{hi} << 32) | lo) >> 11) * 0x1p-53;
      return static_cast<Coordinate>(pic::kCubeLow * pic::kCellSize +
                                     (pic::kCubeHigh - pic::kCubeLow) * pic::kCellSize * u);
    };
    Particle p{};
    p.x = coordinate(a.w0, a.w1);
    p.y = coordinate(a.w2, a.w3);
    p.z = coordinate(b.w0, b.w1);
    p.tag = ParticleTag::make(index, 0);
    return p;
  }

  // The level of each step is predicted by the step before (the draw's hint): the velocity a
  // step will reach is known one step ahead unless a split reverses it, and the acceleration is
  // fixed for the phase. The table entry of the predicted level is loaded first, so that the
  // load overlaps the leapfrog instead of waiting at its end; energy_level checks it. The kicks
  // and the energy are in Real, the drift adds to the position in Coordinate.
  SB_HD static Fate step(Particle& p, Particle& child, const Params& prm, StepDraw& draw) {
    uint32_t& predicted_level = draw.hint();
    pic::Level level = prm.levels[predicted_level];
    constexpr Real kHalfDt = static_cast<Real>(pic::kHalfDt);
    constexpr Coordinate kDt = static_cast<Coordinate>(pic::kDt);
    const Real kx = p.ax * kHalfDt, ky = p.ay * kHalfDt, kz = p.az * kHalfDt;
    p.vx -= kx;
    p.vy -= ky;
    p.vz -= kz;
    p.x += static_cast<Coordinate>(p.vx) * kDt;
    p.y += static_cast<Coordinate>(p.vy) * kDt;
    p.z += static_cast<Coordinate>(p.vz) * kDt;
    p.vx -= kx;
    p.vy -= ky;
    p.vz -= kz;
    // Decided after the level, so that the table load does not wait for the test.
    const bool outside = pic::outside_grid(p.x) || pic::outside_grid(p.y) || pic::outside_grid(p.z);
    const Real energy = p.vx * p.vx + p.vy * p.vy + p.vz * p.vz;
    pic::energy_level(energy, prm.levels, predicted_level, level);
    const Real nx = p.vx - kx - kx, ny = p.vy - ky - ky, nz = p.vz - kz - kz;
    predicted_level = pic::level_guess(nx * nx + ny * ny + nz * nz);
    if (outside) return Fate::kDied;
    const pic::Chances c = level.chances;
    const uint32_t r = draw.u32();
    if (r < c.split) {
      child = p;
      p.vx = -p.vx;
      p.vy = -p.vy;
      p.vz = -p.vz;
      return Fate::kSpawned;
    }
    return r < c.collide ? Fate::kDied : Fate::kAlive;
  }

  SB_HD static bool simulates_children(const Params&) { return true; }

  static Image picture(const std::vector<Particle>& ps) { return pic::picture(ps); }
};

using PicSim = PicSimIn<precision::Double>;

}  // namespace sb
