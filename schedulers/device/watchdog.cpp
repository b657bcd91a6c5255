#include "schedulers/device/watchdog.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <thread>

#include "core/cuda_check.hpp"
#include "core/errors.hpp"

namespace sb {
namespace {

// How long kernels get to notice the flag before the process gives up on them.
constexpr std::chrono::seconds kGrace{10};

}  // namespace

Watchdog::Watchdog(std::string what, double timeout_s)
    : what_(std::move(what)),
      timeout_s_(timeout_s),
      deadline_(std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(timeout_s))) {
  SB_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&raised_), sizeof(uint32_t)));
  *raised_ = 1;
  SB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&device_flag_), sizeof(uint32_t)));
  SB_CUDA_CHECK(cudaMemset(device_flag_, 0, sizeof(uint32_t)));
  SB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

Watchdog::~Watchdog() {
  cudaStreamDestroy(stream_);
  cudaFree(device_flag_);
  cudaFreeHost(raised_);
}

void Watchdog::fail() const {
  throw RunError(
      fmt::format("watchdog: {} did not finish within {} s (--timeout)", what_, timeout_s_));
}

void Watchdog::check() const {
  if (std::chrono::steady_clock::now() > deadline_) fail();
}

void Watchdog::sync(cudaStream_t stream) {
  auto pause = std::chrono::microseconds(20);
  while (true) {
    const cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess) return;
    if (e != cudaErrorNotReady) SB_CUDA_CHECK(e);
    if (std::chrono::steady_clock::now() > deadline_) break;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(2000));
  }
  SB_CUDA_CHECK(
      cudaMemcpyAsync(device_flag_, raised_, sizeof(uint32_t), cudaMemcpyHostToDevice, stream_));
  const auto give_up = std::chrono::steady_clock::now() + kGrace;
  while (std::chrono::steady_clock::now() < give_up) {
    const cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess) fail();
    if (e != cudaErrorNotReady) SB_CUDA_CHECK(e);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  fmt::print(stderr,
             "schedbench: run failed: watchdog: {} did not finish within {} s and its kernels did "
             "not stop when asked; ending the process\n",
             what_, timeout_s_);
  std::_Exit(3);
}

}  // namespace sb
