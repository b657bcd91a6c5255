// The air settings the engine and GPU scheduler tests share: phases of 1e-11 s (about 90 flights
// per electron), a table to 300 eV kept constant above (no run stops on a rare fast electron).
#pragma once

#include <cstdint>
#include <string>

#include "core/run_config.hpp"
#include "sims/air/air.hpp"

namespace sb {

// `base` (sim, init_n, engine settings) made an air run of `phases` phases at `td` Td in `gas`.
inline RunConfig with_air(RunConfig base, const std::string& gas, double td, uint32_t phases) {
  sb::air::gas().set(base, gas);
  sb::air::reduced_field().set(base, td);
  sb::air::phases().set(base, phases);
  sb::air::phase_time().set(base, 1e-11);
  sb::air::max_energy().set(base, 300);
  sb::air::extrapolate().set(base, "constant");
  return base;
}

}  // namespace sb
