// The ranks of one simulation (docs/design.md §10): the processes an MPI launcher (mpirun, srun)
// starts, each running its share of the particles. This floor knows neither a sim's physics nor a
// scheduler's kernels; the drivers (schedulers/host_driver.hpp) move particles and reduce their
// tallies through it. MPI is the control plane and carries host data; it is loaded only where a
// launcher started the process (ranks/world.cpp), so that a run without one needs no MPI library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace sb::ranks {

// The error of a rank whose phase failed, naming the rank: the one error of the run that a rank
// other than 0 reports (the others are the same on every rank, and rank 0 reports them).
class RankFailure : public RunError {
 public:
  using RunError::RunError;
};

// What the other ranks of a run throw where one rank's phase failed: that rank reports the error,
// these end with it silently (the same exit code).
class PeerFailure : public RunError {
 public:
  explicit PeerFailure(int rank) : RunError("rank " + std::to_string(rank) + " failed") {}
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // The ranks on this rank's node (which share its GPUs), and this rank's place among them.
  virtual int local_rank() const = 0;
  virtual int local_size() const = 0;
  // Element-wise over the ranks, in place; exact (unsigned sums wrap modulo 2^64 alike on every
  // rank count, as the digest's sum does, so that two's-complement int64 sums are exact too).
  virtual void sum(uint64_t* values, uint64_t n) = 0;
  virtual void max(uint64_t* values, uint64_t n) = 0;
  void sum(std::vector<uint64_t>& values) { sum(values.data(), values.size()); }
  void max(std::vector<uint64_t>& values) { max(values.data(), values.size()); }
  // Every rank's `values` (of one length on every rank), concatenated in rank order.
  virtual std::vector<uint64_t> gather(const std::vector<uint64_t>& values) = 0;
  // Records of `record_bytes` each: send_counts[k] records of `send`, consecutive by destination,
  // go to rank k; recv_counts[k] records come from rank k into `recv`, consecutive by source.
  virtual void exchange(const void* send, const std::vector<uint64_t>& send_counts, void* recv,
                        const std::vector<uint64_t>& recv_counts, size_t record_bytes) = 0;
};

// This process's ranks: one, or those of the MPI launch that started it (ranks/world.cpp).
Communicator& world();

}  // namespace sb::ranks
