#include "sims/pic/pic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/density_image.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "ranks/reduce.hpp"

namespace sb {
namespace pic {

std::vector<double> level_floors() {
  std::vector<double> floor(kLevels, 0.0);
  for (uint32_t i = 1; i < kLevels; ++i)
    floor[i] = std::pow(10.0, 22.0 * i / kLevels - 6.0);
  return floor;
}

std::vector<Chances> chance_thresholds(const CrossSections& cs) {
  std::vector<Chances> out(kLevels);
  for (uint32_t i = 0; i < kLevels; ++i) {
    out[i] = {percent_threshold(cs.split[i]), percent_threshold(cs.split[i] + cs.remove[i])};
  }
  return out;
}

std::vector<Level> level_table(const CrossSections& cs) {
  const std::vector<double> floor = level_floors();
  const std::vector<Chances> chances = chance_thresholds(cs);
  std::vector<Level> out(kLevels);
  for (uint32_t i = 0; i < kLevels; ++i) {
    const double ceiling = i + 1 < kLevels ? floor[i + 1] : std::numeric_limits<double>::infinity();
    out[i] = {floor[i], ceiling, chances[i]};
  }
  return out;
}

const DeclaredParameter& poisson_steps() {
  static const DeclaredParameter p = required(whole_parameter(
      "poisson_steps", "--poisson-steps", "pic: poisson steps (phases of grid work)",
      "poisson steps", 1, 100000, std::nullopt));
  return p;
}

const DeclaredParameter& mobility_steps() {
  static const DeclaredParameter p = required(
      whole_parameter("mobility_steps", "--mobility-steps", "pic: mobility steps per poisson step",
                      "mobility steps per poisson step", 1, 100000, std::nullopt));
  return p;
}

const DeclaredParameter& cross_section() {
  static const DeclaredParameter p = text_parameter(
      "cross_section", "--cross-section",
      "pic: file of split and remove percent per energy level, or 'synthetic' (default): the "
      "seed's synthetic table",
      "cross-section table", "a file name or 'synthetic'", std::string(kSynthetic));
  return p;
}

const DeclaredParameter& collision_chance() {
  static const DeclaredParameter p = real_parameter(
      "collision_chance", "--collision-chance",
      "pic: constant collision chance, percent, split = remove = half of it (instead of a table)",
      "collision chance per step (%), split = remove = half", 0, 100, std::nullopt);
  return p;
}

namespace {

CrossSections cross_sections_of(const RunConfig& c) {
  const std::string table = cross_section().text(c);
  if (collision_chance().given(c)) {
    if (table != kSynthetic) {
      throw UsageError("--collision-chance: give either --cross-section or --collision-chance");
    }
    return constant_cross_sections(collision_chance().real(c));
  }
  return table == kSynthetic ? synthetic_cross_sections() : read_cross_sections(table);
}

// The cells that the particles of every rank occupy (docs/design.md §10).
template <class Particle>
CellBox box_over_ranks(const std::vector<Particle>& ps, ranks::Communicator& comm) {
  CellBox box;
  for (const Particle& p : ps) {
    box = box.merged(CellBox::of(cell_of(p.x), cell_of(p.y), cell_of(p.z)));
  }
  ranks::bounds(comm, box.lo, box.hi, 3);
  return box;
}

}  // namespace

SimTable table(const RunConfig& c) {
  const CrossSections cs = cross_sections_of(c);
  std::string what;
  if (collision_chance().given(c)) {
    what = fmt::format("split = remove = {} %", collision_chance().real(c) / 2);
  } else if (cross_section().text(c) == kSynthetic) {
    what = "the seed's synthetic table";
  } else {
    what = "as read from " + cross_section().text(c);
  }
  return {format_cross_sections(cs), fmt::format("{} levels, {}", cs.split.size(), what)};
}

Setup::Setup(const RunConfig& c)
    : levels_(level_table(cross_sections_of(c))),
      plan_{static_cast<uint32_t>(poisson_steps().whole(c)),
            static_cast<uint32_t>(mobility_steps().whole(c))} {}

template <class Particle>
void accelerate_on_host(std::vector<Particle>& ps) {
  ranks::Communicator& comm = ranks::world();
  const CellBox box = box_over_ranks(ps, comm);
  if (box.empty()) return;  // no particle on any rank
  const LocalGrid grid(box);
  auto counts = allocate_host<uint32_t>(grid.cells(), "the grid's particle counts");
  for (const Particle& p : ps) {
    ++counts[grid.index(cell_of(p.x), cell_of(p.y), cell_of(p.z))];
  }
  ranks::sum(comm, counts.data(), grid.cells());  // every rank's particles, on every rank
  auto accel = allocate_host<float>(3 * grid.cells(), "the grid's accelerations");
  const double k = acceleration_constant();
  for (uint64_t i = 0; i < grid.cells(); ++i) {
    int x, y, z;
    if (grid.interior(i, x, y, z))
      cell_acceleration(grid, counts.data(), k, x, y, z, &accel[3 * i]);
  }
  for (Particle& p : ps) {
    const uint64_t i = grid.index(cell_of(p.x), cell_of(p.y), cell_of(p.z));
    p.ax = accel[3 * i];
    p.ay = accel[3 * i + 1];
    p.az = accel[3 * i + 2];
  }
}

template <class Particle>
Image picture(const std::vector<Particle>& ps) {
  constexpr int kMargin = 4;
  CellBox box = CellBox::of(kCells / 2, kCells / 2, 0);
  for (const Particle& p : ps)
    box = box.merged(CellBox::of(cell_of(p.x), cell_of(p.y), 0));
  const int x0 = box.lo[0] - kMargin, y0 = box.lo[1] - kMargin;
  const int wx = box.hi[0] - box.lo[0] + 1 + 2 * kMargin,
            wy = box.hi[1] - box.lo[1] + 1 + 2 * kMargin;
  std::vector<uint32_t> counts(static_cast<size_t>(wx) * wy, 0);
  for (const Particle& p : ps)
    ++counts[static_cast<size_t>(cell_of(p.y) - y0) * wx + (cell_of(p.x) - x0)];
  return density_image(counts, wx, wy, kCellSize);
}

template void accelerate_on_host(std::vector<ParticleIn<precision::Double>>&);
template void accelerate_on_host(std::vector<ParticleIn<precision::Mixed>>&);
template void accelerate_on_host(std::vector<ParticleIn<precision::Single>>&);
template Image picture(const std::vector<ParticleIn<precision::Double>>&);
template Image picture(const std::vector<ParticleIn<precision::Mixed>>&);
template Image picture(const std::vector<ParticleIn<precision::Single>>&);

}  // namespace pic
}  // namespace sb
