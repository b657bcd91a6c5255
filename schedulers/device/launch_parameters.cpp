#include "schedulers/device/launch_parameters.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "schedulers/compaction_variants.hpp"

namespace sb {

std::string describe(const RunConfig& c, const LaunchKnobs& k, uint32_t phases,
                     uint32_t steps_per_phase) {
  return fmt::format(
      "{} with {} (init_n {}, {} x {} steps, capacity {}, seed {}, block size {}, "
      "blocks per SM {})",
      c.sim, c.scheduler, c.init_n, phases, steps_per_phase, c.capacity, c.seed, k.block_size,
      k.blocks_per_sm == 0 ? std::string("fill") : std::to_string(k.blocks_per_sm));
}

}  // namespace sb

namespace sb::launch_knobs {

const DeclaredParameter& block_size() {
  static const DeclaredParameter p = [] {
    DeclaredParameter d = with_role(
        whole_parameter("block_size", "--block-size",
                        "threads per block: a multiple of 32 from 32 to 1024 (default 128)",
                        "block size (threads per block)", 32, 1024, 128),
        ParameterRole::kTuning);
    d.whole_multiple = 32;
    return d;
  }();
  return p;
}

const DeclaredParameter& blocks_per_sm() {
  static const DeclaredParameter p = [] {
    DeclaredParameter d = with_role(
        whole_parameter(
            "blocks_per_sm", "--blocks-per-sm",
            "resident blocks per SM for grids sized from the device: fill or 1..32 (default fill)",
            "blocks per SM", 1, 32, std::nullopt),
        ParameterRole::kTuning);
    d.zero_word = "fill";
    d.fallback = d.zero_word;
    return d;
  }();
  return p;
}

const DeclaredParameter& timeout() {
  static const DeclaredParameter p =
      with_role(real_parameter("timeout", "--timeout",
                               "GPU schedulers: seconds before the watchdog fails the run "
                               "(default 600)",
                               "watchdog timeout (s)", 0.1, 86400, 600),
                ParameterRole::kBookkeeping);
  return p;
}

const DeclaredParameter& compaction() {
  static const DeclaredParameter p = with_role(
      choice_parameter("compaction", "--compaction",
                       "GPU schedulers: how the dead are removed: simple, block, warp, cub, "
                       "inplace (default inplace, one particle array)",
                       "compaction variant", compaction_variants(), "inplace"),
      ParameterRole::kTuning);
  return p;
}

const DeclaredParameter& batch() {
  static const DeclaredParameter p = [] {
    DeclaredParameter d = with_role(
        whole_parameter("batch", "--batch",
                        "GPU schedulers: device slots per batch when the particles stay in pinned "
                        "host memory and stream through the GPU each phase: auto or "
                        "1000..10^12 (default auto: batches only where --capacity does not fit "
                        "in device memory)",
                        "batch (device slots)", 1000, 1'000'000'000'000, std::nullopt),
        ParameterRole::kTuning);
    d.zero_word = "auto";
    d.fallback = d.zero_word;
    return d;
  }();
  return p;
}

DeclaredParameters grid_shape() {
  return {&block_size(), &blocks_per_sm()};
}

DeclaredParameters every_gpu_run() {
  return {&timeout(), &compaction(), &batch()};
}

LaunchKnobs of(const RunConfig& c) {
  return {static_cast<uint32_t>(block_size().whole(c)),
          static_cast<uint32_t>(blocks_per_sm().whole(c)), timeout().real(c),
          compaction().text(c), batch().whole(c)};
}

void check_batch(const RunConfig& c, bool streams) {
  const uint64_t n = batch().whole(c);
  if (n > 0 && !streams) {
    throw UsageError(fmt::format(
        "--batch {}: {} has grid work between phases that needs all its particles on the "
        "device; accepted: --batch auto, or a sim that streams (docs/design.md §11)",
        n, c.sim));
  }
}

}  // namespace sb::launch_knobs
