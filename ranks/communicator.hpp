// The ranks of one simulation (docs/design.md §10): the processes an MPI launcher (mpirun, srun)
// starts, each running its share of the particles. This floor knows neither a sim's physics nor a
// scheduler's kernels; the drivers (schedulers/host_driver.hpp) move particles and reduce their
// tallies through it. MPI is the control plane and carries host data; it is loaded only where a
// launcher started the process (ranks/world.cpp), so that a run without one needs no MPI library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace sb::ranks {

// The error of the rank that reports a failure every rank has learnt of (agree_on_failure): its
// own error, which it reports naming itself (`what`: "rank 1 of 3: ..."), the one error of the
// run; `rank_name` is empty where the error is the command's rather than the rank's.
class RankFailure : public RunError {
 public:
  RankFailure(std::exception_ptr error, const std::string& rank_name);
  const std::exception_ptr& error() const { return error_; }
  const std::string& rank_name() const { return rank_name_; }

 private:
  std::exception_ptr error_;
  std::string rank_name_;
};

// What the other ranks of a run throw where one rank failed: that rank reports the error, these
// end with it silently, with its exit code.
class PeerFailure : public RunError {
 public:
  PeerFailure(int rank, int exit_code)
      : RunError("rank " + std::to_string(rank) + " failed"), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
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
  // Ends every rank at once with exit code `code` (MPI_Abort): for a failure that the other ranks
  // cannot learn of, which they would otherwise wait for forever.
  [[noreturn]] virtual void abort(int code) = 0;
};

// This process's ranks: one, or those of the MPI launch that started it (ranks/world.cpp).
Communicator& world();

// world() where it has been joined and holds several ranks, else null (without joining it).
Communicator* joined_ranks();

// The launcher's environment variable that says this process is one of several ranks
// (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_SIZE), or null where no launcher started it.
const char* launcher_variable();

// Refuses a run that names `asked` ranks (--ranks) where the launcher started another number.
void check_rank_count(uint32_t asked, const Communicator& comm);

// Ends every rank where any failed (docs/design.md §10), every rank calling it at the same point:
// `failed` is this rank's error (null: none), `exit_code` the code it would end the program with
// (by default a run's failure's, a RunError's).
// Returns where no rank failed. Otherwise the lowest rank that failed throws a RankFailure holding
// its error, naming the rank unless every rank failed on the same bad input (exit code 2, one
// message: the command's error rather than a rank's), and the others a PeerFailure with its exit
// code. On one rank, `failed` is rethrown.
void agree_on_failure(const std::exception_ptr& failed, Communicator& comm, int exit_code = 3);

}  // namespace sb::ranks
