// The MPI communicator (ranks/communicator.hpp), built as libsb_mpi.so, the one part of schedbench
// that links MPI; ranks/world.cpp loads it where a launcher started the process.
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "ranks/communicator.hpp"

namespace sb::ranks {
namespace {

// MPI's counts are ints: a transfer larger than that goes in several.
constexpr uint64_t kMostPerCall = 1u << 30;

class MpiRanks final : public Communicator {
 public:
  MpiRanks() {
    int ready = 0;
    MPI_Initialized(&ready);
    if (!ready) MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank_);
    MPI_Comm_size(node, &local_size_);
    MPI_Comm_free(&node);
  }
  ~MpiRanks() override {
    int done = 0;
    MPI_Finalized(&done);
    if (!done) MPI_Finalize();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }

  void sum(uint64_t* values, uint64_t n) override { reduce(values, n, MPI_SUM); }
  void max(uint64_t* values, uint64_t n) override { reduce(values, n, MPI_MAX); }

  std::vector<uint64_t> gather(const std::vector<uint64_t>& values) override {
    std::vector<uint64_t> out(values.size() * size_);
    MPI_Allgather(values.data(), static_cast<int>(values.size()), MPI_UINT64_T, out.data(),
                  static_cast<int>(values.size()), MPI_UINT64_T, MPI_COMM_WORLD);
    return out;
  }

  // Every message in pieces of at most kMostPerCall records (so that counts above MPI's int range
  // move too), all posted at once and then waited for.
  void exchange(const void* send, const std::vector<uint64_t>& send_counts, void* recv,
                const std::vector<uint64_t>& recv_counts, size_t record_bytes) override {
    MPI_Datatype record;
    MPI_Type_contiguous(static_cast<int>(record_bytes), MPI_BYTE, &record);
    MPI_Type_commit(&record);
    std::vector<MPI_Request> requests;
    const auto post = [&](char* base, const std::vector<uint64_t>& counts, bool sending) {
      uint64_t at = 0;
      for (int k = 0; k < size_; ++k) {
        for (uint64_t done = 0; done < counts[k]; done += kMostPerCall) {
          const int n = static_cast<int>(std::min(kMostPerCall, counts[k] - done));
          const int tag = static_cast<int>(done / kMostPerCall);
          char* where = base + (at + done) * record_bytes;
          requests.emplace_back();
          if (sending) {
            MPI_Isend(where, n, record, k, tag, MPI_COMM_WORLD, &requests.back());
          } else {
            MPI_Irecv(where, n, record, k, tag, MPI_COMM_WORLD, &requests.back());
          }
        }
        at += counts[k];
      }
    };
    post(static_cast<char*>(recv), recv_counts, false);
    post(const_cast<char*>(static_cast<const char*>(send)), send_counts, true);
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    MPI_Type_free(&record);
  }

  void abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // were MPI_Abort to return, the process ends still
  }

 private:
  void reduce(uint64_t* values, uint64_t n, MPI_Op op) {
    for (uint64_t done = 0; done < n; done += kMostPerCall) {
      MPI_Allreduce(MPI_IN_PLACE, values + done, static_cast<int>(std::min(kMostPerCall, n - done)),
                    MPI_UINT64_T, op, MPI_COMM_WORLD);
    }
  }

  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

}  // namespace
}  // namespace sb::ranks

extern "C" sb::ranks::Communicator* sb_mpi_communicator() {
  return new sb::ranks::MpiRanks();
}
