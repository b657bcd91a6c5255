// GPU tests skip, never pass, where no CUDA device is present.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/device.hpp"
#include "schedulers/registry.hpp"

#define SB_REQUIRE_CUDA_DEVICE()                                        \
  do {                                                                  \
    if (!::sb::cuda_device_present()) GTEST_SKIP() << "no CUDA device"; \
  } while (0)

namespace sb::testing_support {

// Every GPU scheduler's name, in registry order.
inline std::vector<std::string> gpu_schedulers() {
  std::vector<std::string> out;
  for (const SchedulerEntry& e : all_schedulers()) {
    if (e.kind == SchedulerKind::kGpu) out.push_back(e.name);
  }
  return out;
}

}  // namespace sb::testing_support
