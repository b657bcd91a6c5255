// The null-collision table (seed 003 §2.2.2): each process's collision frequency
// nu_k(eps) = N x_s sigma_k(eps) v(eps) on a uniform energy grid, stored as cumulative sums per
// grid row, so that a step chooses its process with one lookup, a linear interpolation and
// comparisons; and nu_max, the largest total over the grid (linear interpolation between rows
// never exceeds it).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/hostdev.hpp"
#include "sims/air/lxcat.hpp"

namespace sb::air {

// What a collision does, as the step reads it.
enum class Effect : uint32_t { kElastic, kExcitation, kIonization, kAttachment };

struct ProcessInfo {
  Effect effect;
  uint32_t species;      // index into the gas mixture
  double threshold;      // eV lost (excitation, ionization)
  double mass_ratio;     // m_e / M of the species (elastic)
  double thermal_speed;  // sqrt(k T / M), m/s: per component of the molecule's velocity
};

// Above the table's top energy: stop the run, use the top row's frequencies, or no collisions.
enum class Extrapolate : uint32_t { kError, kConstant, kZero };

struct GasComponent {
  std::string species;
  double fraction;
};

struct TableSpec {
  std::string path;  // for messages
  std::vector<GasComponent> gas;
  double density;      // m^-3
  double temperature;  // K
  double max_energy;   // eV; 0: the smallest top of the species' elastic tables
  // A TIMES_N cross section is multiplied by its species' density rather than the gas's.
  bool three_body_partial = false;
};

struct CollisionTable {
  std::vector<ProcessInfo> processes;
  std::vector<std::string> names;  // "N2 -> N2(v1) EXCITATION", for reports
  std::vector<double> cumulative;  // rows x processes, s^-1
  uint32_t rows = 0;
  double top = 0;       // eV: the energy of the last row
  double nu_max = 0;    // s^-1
  double inv_step = 0;  // rows per eV
};

// Rows of the grid: a step of 0.5 meV, or coarser beyond 2^16 + 1 rows (32.8 eV).
uint32_t grid_rows(double top);

// "N2:0.8,O2:0.2"; throws UsageError unless every fraction is in (0, 1] and they sum to 1
// within 1e-6.
std::vector<GasComponent> parse_gas(const std::string& text);

// Throws UsageError naming the file for a species the file lacks and a species without an
// ELASTIC or EFFECTIVE cross section. An EFFECTIVE cross section becomes ELASTIC less the
// species' inelastic ones (said once on stderr). Between and beyond its points a cross section
// is interpolated linearly and kept at its last value (LXCat's convention); below its first
// point it is its first value for elastic and zero for inelastic processes.
CollisionTable build_table(const std::vector<Process>& file, const TableSpec& spec);

// The speed of an electron of kinetic energy eps eV, relativistic.
double speed_of(double eps);

}  // namespace sb::air
