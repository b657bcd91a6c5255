// ccp's constants (docs/physics.md, "ccp: the Turner helium discharge"): the masses the benchmark
// prescribes and the four cases of Turner et al. (2013), Table I. SI units.
#pragma once

#include <cstdint>

namespace sb::ccp {

inline constexpr double kElementaryCharge = 1.602176634e-19;     // C
inline constexpr double kElectronMass = 9.109e-31;               // kg, as the benchmark prescribes
inline constexpr double kIonMass = 6.67e-27;                     // kg, He+ and He
inline constexpr double kBoltzmann = 1.380649e-23;               // J/K
inline constexpr double kVacuumPermittivity = 8.8541878128e-12;  // F/m
inline constexpr double kPi = 3.14159265358979323846;

// Thresholds of the electron processes, eV (the first energy of each table).
inline constexpr double kExcitation1Threshold = 19.82;
inline constexpr double kExcitation2Threshold = 20.61;
inline constexpr double kIonizationThreshold = 24.59;

// One case of the benchmark: what differs between the four (the gap, the frequency, the
// temperatures and the averaging window are common).
struct CaseSpec {
  double gas_density;         // m^-3
  double voltage;             // V0, V
  uint32_t cells;             // nodes = cells + 1
  uint32_t steps_per_period;  // dt = 1 / (steps_per_period f)
  double plasma_density;      // n0, m^-3
  uint32_t particles_per_cell;
  uint32_t periods;
};

inline constexpr CaseSpec kCases[4] = {
    {9.64e20, 450, 128, 400, 2.56e14, 512, 1280},
    {3.21e21, 200, 256, 800, 5.12e14, 256, 5120},
    {9.64e21, 150, 512, 1600, 5.12e14, 128, 5120},
    {3.21e22, 120, 512, 3200, 3.84e14, 64, 15360},
};

inline constexpr double kGap = 0.067;                  // m
inline constexpr double kFrequency = 13.56e6;          // Hz
inline constexpr double kGasTemperature = 300;         // K
inline constexpr double kElectronTemperature = 30000;  // K, the initial electrons'
inline constexpr uint32_t kAveragePeriods = 32;

}  // namespace sb::ccp
