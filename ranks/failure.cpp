// Failures that every rank learns of (ranks/communicator.hpp, docs/design.md §10).
#include <functional>
#include <string>
#include <vector>

#include "ranks/communicator.hpp"

namespace sb::ranks {
namespace {

std::string message_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an error of unknown type";
  }
}

}  // namespace

RankFailure::RankFailure(std::exception_ptr error, const std::string& rank_name)
    : RunError((rank_name.empty() ? "" : rank_name + ": ") + message_of(error)),
      error_(std::move(error)),
      rank_name_(rank_name) {}

void agree_on_failure(const std::exception_ptr& failed, Communicator& comm, int exit_code) {
  if (comm.size() == 1) {
    if (failed) std::rethrow_exception(failed);
    return;
  }
  // Every rank's exit code (0: it did not fail) and a hash of its message (one program on every
  // rank, so the hashes compare).
  const uint64_t code = failed ? static_cast<uint64_t>(exit_code) : 0;
  const uint64_t text = failed ? std::hash<std::string>{}(message_of(failed)) : 0;
  const std::vector<uint64_t> all = comm.gather({code, text});
  int first = -1;
  bool alike = true;
  for (int r = 0; r < comm.size(); ++r) {
    if (first < 0 && all[2 * r] != 0) first = r;
    alike = alike && all[2 * r] == all[0] && all[2 * r + 1] == all[1];
  }
  if (first < 0) return;
  if (first != comm.rank()) throw PeerFailure(first, static_cast<int>(all[2 * first]));
  const bool commands = alike && code == 2;
  throw RankFailure(
      failed,
      commands ? "" : "rank " + std::to_string(first) + " of " + std::to_string(comm.size()));
}

}  // namespace sb::ranks
