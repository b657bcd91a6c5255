// The GPU communicator (ranks/device_communicator.hpp) through NCCL, built as libsb_nccl.so, the
// one part of schedbench that links NCCL; ranks/device_world.cpp loads it where a run on GPUs has
// several ranks. NCCL's integer sums are exact whatever its algorithm or the ranks' order, which
// floating-point sums are not (docs/determinism.md).
#include <nccl.h>

#include <cstring>
#include <string>

#include "ranks/device_communicator.hpp"

namespace sb::ranks {
namespace {

void check(ncclResult_t result, const char* what) {
  if (result == ncclSuccess) return;
  throw RunError(std::string("NCCL: ") + what + ": " + ncclGetErrorString(result) +
                 (result == ncclSystemError || result == ncclUnhandledCudaError
                      ? " (NCCL_DEBUG=WARN says more)"
                      : ""));
}

class NcclRanks final : public DeviceCommunicator {
 public:
  // Rank 0's unique id reaches the others through the host communicator.
  explicit NcclRanks(Communicator& host) : me_(host.rank()) {
    ncclUniqueId id;
    std::memset(&id, 0, sizeof id);
    if (host.rank() == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    constexpr size_t kWords = (sizeof id + 7) / 8;
    std::vector<uint64_t> words(kWords, 0);
    std::memcpy(words.data(), &id, sizeof id);
    const std::vector<uint64_t> all = host.gather(words);
    std::memcpy(&id, all.data(), sizeof id);  // rank 0's
    check(ncclCommInitRank(&comm_, host.size(), id, host.rank()), "ncclCommInitRank");
  }
  // The communicator lives as long as the process: NCCL's resources go with it at exit, after
  // the CUDA runtime that ncclCommDestroy would need.

  void sum(int64_t* device, uint64_t n, cudaStream_t stream) override {
    check(ncclAllReduce(device, device, n, ncclInt64, ncclSum, comm_, stream), "ncclAllReduce");
  }
  void sum(uint32_t* device, uint64_t n, cudaStream_t stream) override {
    check(ncclAllReduce(device, device, n, ncclUint32, ncclSum, comm_, stream), "ncclAllReduce");
  }

  void exchange(const void* send, const std::vector<uint64_t>& send_counts, void* recv,
                const std::vector<uint64_t>& recv_counts, size_t record_bytes,
                cudaStream_t stream) override {
    const char* from = static_cast<const char*>(send);
    char* into = static_cast<char*>(recv);
    check(ncclGroupStart(), "ncclGroupStart");
    for (size_t k = 0; k < send_counts.size(); ++k) {
      const size_t out = send_counts[k] * record_bytes, in = recv_counts[k] * record_bytes;
      if (static_cast<int>(k) != me_ && out > 0)
        check(ncclSend(from, out, ncclUint8, static_cast<int>(k), comm_, stream), "ncclSend");
      if (static_cast<int>(k) != me_ && in > 0)
        check(ncclRecv(into, in, ncclUint8, static_cast<int>(k), comm_, stream), "ncclRecv");
      from += out;
      into += in;
    }
    check(ncclGroupEnd(), "ncclGroupEnd");
  }

 private:
  int me_;
  ncclComm_t comm_ = nullptr;
};

}  // namespace
}  // namespace sb::ranks

extern "C" sb::ranks::DeviceCommunicator* sb_nccl_communicator(sb::ranks::Communicator* host) {
  return new sb::ranks::NcclRanks(*host);
}
