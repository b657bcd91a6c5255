// The air settings the engine and GPU scheduler tests share: phases of 1e-11 s (about 90 flights
// per electron), a table to 300 eV kept constant above (no run stops on a rare fast electron).
#pragma once

#include <cstdint>
#include <string>

#include "core/run_config.hpp"

namespace sb {

// `base` (sim, init_n, engine settings) made an air run of `phases` phases at `td` Td in `gas`.
inline RunConfig with_air(RunConfig base, const std::string& gas, double td, uint32_t phases) {
  base.gas = gas;
  base.reduced_field = td;
  base.phases = phases;
  base.phase_time = 1e-11;
  base.max_energy = 300;
  base.extrapolate = "constant";
  return base;
}

}  // namespace sb
