// PIC-MCC constants (seed 003 §3.4, docs/design.md §5). SI units.
#pragma once

#include <cstdint>

namespace sb::pic {

inline constexpr uint32_t kCells = 512;                       // cells per axis
inline constexpr double kCellSize = 1e-2;                     // h, m
inline constexpr double kDt = 1e-12;                          // mobility step, s
inline constexpr double kHalfDt = kDt / 2;                    // exact: a power-of-two scale
inline constexpr uint32_t kLevels = 10000;                    // energy levels of the cross sections
inline constexpr double kElementaryCharge = 1.602176487e-19;  // C
inline constexpr double kElectronMass = 9.1093837015e-31;     // kg
inline constexpr double kVacuumPermittivity = 8.8541878176e-12;  // F/m
inline constexpr uint32_t kCubeLow = 256 - 30;  // initial particles fill [226 h, 288 h)^3
inline constexpr uint32_t kCubeHigh = 256 + 32;

}  // namespace sb::pic
