// Physical constants for sim air: SI, CODATA 2018 (e, k_B and c exact by definition).
#pragma once

namespace sb::air {

inline constexpr double kElementaryCharge = 1.602176634e-19;   // C
inline constexpr double kElectronMass = 9.1093837015e-31;      // kg
inline constexpr double kSpeedOfLight = 299792458.0;           // m/s
inline constexpr double kBoltzmann = 1.380649e-23;             // J/K
inline constexpr double kElectronRestEnergyEv = 510998.95000;  // m_e c^2 / e, eV
inline constexpr double kTownsend = 1e-21;                     // V m^2
inline constexpr double kBar = 1e5;                            // Pa
inline constexpr double kInvC2 = 1.0 / (kSpeedOfLight * kSpeedOfLight);

}  // namespace sb::air
