// The GPU communicator (ranks/device_communicator.hpp) through NCCL, built as libsb_nccl.so, the
// one part of schedbench that links NCCL; ranks/device_world.cpp loads it where a run on GPUs has
// several ranks. NCCL's integer sums are exact whatever its algorithm or the ranks' order, which
// floating-point sums are not (docs/determinism.md).
#include <nccl.h>

#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "ranks/device_communicator.hpp"

namespace sb::ranks {
namespace {

// The message of a failed call, which the program throws: no exception leaves this module
// (ranks/device_communicator.hpp).
std::string describe(ncclResult_t result, const char* what) {
  return std::string("NCCL: ") + what + ": " + ncclGetErrorString(result) +
         (result == ncclSystemError || result == ncclUnhandledCudaError
              ? " (NCCL_DEBUG=WARN says more)"
              : "");
}

class NcclRanks final : public DeviceCommunicator {
 public:
  // Rank 0's unique id reaches the others through the host communicator. `error` is empty, or
  // what failed.
  NcclRanks(Communicator& host, std::string& error) : me_(host.rank()) {
    ncclUniqueId id;
    std::memset(&id, 0, sizeof id);
    const ncclResult_t got = host.rank() == 0 ? ncclGetUniqueId(&id) : ncclSuccess;
    // The id's words, then whether rank 0 made it, so that every rank knows.
    constexpr size_t kWords = (sizeof id + 7) / 8;
    std::vector<uint64_t> words(kWords + 1, 0);
    std::memcpy(words.data(), &id, sizeof id);
    words[kWords] = got == ncclSuccess ? 1 : 0;
    const std::vector<uint64_t> all = host.gather(words);  // every rank takes part
    std::memcpy(&id, all.data(), sizeof id);               // rank 0's
    if (all[kWords] == 0) {
      error = describe(got != ncclSuccess ? got : ncclInternalError, "ncclGetUniqueId on rank 0");
      return;
    }
    const ncclResult_t made = ncclCommInitRank(&comm_, host.size(), id, host.rank());
    if (made != ncclSuccess) error = describe(made, "ncclCommInitRank");
  }
  // The communicator lives as long as the process: NCCL's resources go with it at exit, after
  // the CUDA runtime that ncclCommDestroy would need.

 protected:
  const char* sum_int64(int64_t* device, uint64_t n, cudaStream_t stream) override {
    return check(ncclAllReduce(device, device, n, ncclInt64, ncclSum, comm_, stream),
                 "ncclAllReduce");
  }
  const char* sum_uint32(uint32_t* device, uint64_t n, cudaStream_t stream) override {
    return check(ncclAllReduce(device, device, n, ncclUint32, ncclSum, comm_, stream),
                 "ncclAllReduce");
  }

  const char* exchange_records(const void* send, const std::vector<uint64_t>& send_counts,
                               void* recv, const std::vector<uint64_t>& recv_counts,
                               size_t record_bytes, cudaStream_t stream) override {
    const char* from = static_cast<const char*>(send);
    char* into = static_cast<char*>(recv);
    if (const char* e = check(ncclGroupStart(), "ncclGroupStart")) return e;
    const char* failed = nullptr;
    for (size_t k = 0; k < send_counts.size() && failed == nullptr; ++k) {
      const size_t out = send_counts[k] * record_bytes, in = recv_counts[k] * record_bytes;
      if (static_cast<int>(k) != me_ && out > 0)
        failed =
            check(ncclSend(from, out, ncclUint8, static_cast<int>(k), comm_, stream), "ncclSend");
      if (failed == nullptr && static_cast<int>(k) != me_ && in > 0)
        failed =
            check(ncclRecv(into, in, ncclUint8, static_cast<int>(k), comm_, stream), "ncclRecv");
      from += out;
      into += in;
    }
    const char* ended = check(ncclGroupEnd(), "ncclGroupEnd");  // a group started is ended
    return failed != nullptr ? failed : ended;
  }

 private:
  const char* check(ncclResult_t result, const char* what) {
    if (result == ncclSuccess) return nullptr;
    error_ = describe(result, what);
    return error_.c_str();
  }

  int me_;
  ncclComm_t comm_ = nullptr;
  std::string error_;
};

}  // namespace
}  // namespace sb::ranks

// The communicator, or nullptr with what failed in *error (this module's storage).
extern "C" sb::ranks::DeviceCommunicator* sb_nccl_communicator(sb::ranks::Communicator* host,
                                                               const char** error) {
  static std::string failed;
  try {
    auto made = std::make_unique<sb::ranks::NcclRanks>(*host, failed);
    if (failed.empty()) return made.release();
  } catch (const std::exception& e) {
    failed = e.what();
  }
  *error = failed.c_str();
  return nullptr;
}
