#include "schedulers/device/launch_parameters.hpp"

#include "schedulers/compaction_variants.hpp"

namespace sb::launch_knobs {

const DeclaredParameter& block_size() {
  static const DeclaredParameter p = [] {
    DeclaredParameter d = with_role(
        whole_parameter("block_size", "--block-size",
                        "threads per block: a multiple of 32 from 32 to 1024 (default 128)",
                        "block size (threads per block)", 32, 1024, RunConfig{}.block_size),
        ParameterRole::kTuning);
    d.whole_multiple = 32;
    return stored_in(d, &RunConfig::block_size);
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
    return stored_in(d, &RunConfig::blocks_per_sm);
  }();
  return p;
}

const DeclaredParameter& timeout() {
  static const DeclaredParameter p = stored_in(
      with_role(real_parameter("timeout", "--timeout",
                               "GPU schedulers: seconds before the watchdog fails the run "
                               "(default 600)",
                               "watchdog timeout (s)", 0.1, 86400, RunConfig{}.timeout_s),
                ParameterRole::kBookkeeping),
      &RunConfig::timeout_s);
  return p;
}

const DeclaredParameter& compaction() {
  static const DeclaredParameter p = stored_in(
      with_role(
          choice_parameter("compaction", "--compaction",
                           "GPU schedulers: how the dead are removed: simple, block, warp, "
                           "cub, inplace (default inplace, one particle array)",
                           "compaction variant", compaction_variants(), RunConfig{}.compaction),
          ParameterRole::kTuning),
      &RunConfig::compaction);
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
    return stored_in(d, &RunConfig::batch);
  }();
  return p;
}

DeclaredParameters grid_shape() {
  return {&block_size(), &blocks_per_sm()};
}

DeclaredParameters every_gpu_run() {
  return {&timeout(), &compaction(), &batch()};
}

}  // namespace sb::launch_knobs
