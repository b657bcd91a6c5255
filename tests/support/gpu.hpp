// GPU tests skip, never pass, where no CUDA device is present.
#pragma once

#include <gtest/gtest.h>

#include "core/device.hpp"

#define SB_REQUIRE_CUDA_DEVICE()                                        \
  do {                                                                  \
    if (!::sb::cuda_device_present()) GTEST_SKIP() << "no CUDA device"; \
  } while (0)
