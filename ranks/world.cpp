#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "core/errors.hpp"
#include "ranks/communicator.hpp"

namespace sb::ranks {
namespace {

// The ranks of a process that no launcher started: itself alone.
class OneRank final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  int local_size() const override { return 1; }
  void sum(uint64_t*, uint64_t) override {}
  void max(uint64_t*, uint64_t) override {}
  std::vector<uint64_t> gather(const std::vector<uint64_t>& values) override { return values; }
  void exchange(const void* send, const std::vector<uint64_t>& send_counts, void* recv,
                const std::vector<uint64_t>&, size_t record_bytes) override {
    if (send_counts[0] > 0) std::memmove(recv, send, send_counts[0] * record_bytes);
  }
};

// The environment variable by which a launcher tells a process it is one of several: OpenMPI's
// mpirun, PMIx (srun --mpi=pmix, OpenMPI 5) and PMI (MPICH, srun --mpi=pmi2).
const char* launcher_variable() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    if (std::getenv(v) != nullptr) return v;
  }
  return nullptr;
}

// The MPI communicator, from libsb_mpi.so beside the program's libraries (ranks/mpi.cpp), which
// alone links MPI.
std::unique_ptr<Communicator> load_mpi(const char* variable) {
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe");
  const std::string path = (exe.parent_path().parent_path() / "lib" / "libsb_mpi.so").string();
  void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (module == nullptr) {
    throw UsageError(fmt::format(
        "started by an MPI launcher ({} is set) but its ranks cannot be joined: {}; accepted: "
        "OpenMPI's runtime installed (README, \"Many GPUs and nodes\"), or a run without a "
        "launcher",
        variable, dlerror()));
  }
  using Make = Communicator* (*)();
  const auto make = reinterpret_cast<Make>(dlsym(module, "sb_mpi_communicator"));
  if (make == nullptr) throw UsageError(fmt::format("{}: not schedbench's MPI module", path));
  return std::unique_ptr<Communicator>(make());
}

}  // namespace

Communicator& world() {
  static const std::unique_ptr<Communicator> ranks = []() -> std::unique_ptr<Communicator> {
    const char* variable = launcher_variable();
    if (variable == nullptr) return std::make_unique<OneRank>();
    return load_mpi(variable);
  }();
  return *ranks;
}

}  // namespace sb::ranks
