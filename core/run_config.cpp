#include "core/run_config.hpp"

#include <fmt/format.h>

namespace sb {

std::string describe(const RunConfig& c, uint32_t phases, uint32_t steps_per_phase) {
  return fmt::format(
      "{} with {} (init_n {}, {} x {} steps, capacity {}, seed {}, block size {}, "
      "blocks per SM {})",
      c.sim, c.scheduler, c.init_n, phases, steps_per_phase, c.capacity, c.seed, c.block_size,
      c.blocks_per_sm == 0 ? std::string("fill") : std::to_string(c.blocks_per_sm));
}

}  // namespace sb
