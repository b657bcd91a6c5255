#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "core/errors.hpp"
#include "ranks/communicator.hpp"
#include "ranks/device_communicator.hpp"

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
  void abort(int code) override { std::_Exit(code); }
};

// A symbol of one of schedbench's modules beside the program's libraries (build/lib), which
// alone link MPI and NCCL; null, with `error` set, where the module or a library it needs is
// missing.
void* module_symbol(const char* module, const char* symbol, std::string& error) {
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe");
  const std::string path = (exe.parent_path().parent_path() / "lib" / module).string();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr) {
    error = dlerror();
    return nullptr;
  }
  void* found = dlsym(handle, symbol);
  if (found == nullptr) error = path + ": not schedbench's module";
  return found;
}

// The MPI communicator (ranks/mpi.cpp).
std::unique_ptr<Communicator> load_mpi(const char* variable) {
  std::string error;
  void* make = module_symbol("libsb_mpi.so", "sb_mpi_communicator", error);
  if (make == nullptr) {
    throw UsageError(fmt::format(
        "started by an MPI launcher ({} is set) but its ranks cannot be joined: {}; accepted: "
        "OpenMPI's runtime installed (README, \"Many GPUs and nodes\"), or a run without a "
        "launcher",
        variable, error));
  }
  return std::unique_ptr<Communicator>(reinterpret_cast<Communicator* (*)()>(make)());
}

// The NCCL communicator (ranks/nccl.cpp) of the ranks of `host`.
std::unique_ptr<DeviceCommunicator> load_nccl(Communicator& host) {
  std::string error;
  void* make = module_symbol("libsb_nccl.so", "sb_nccl_communicator", error);
  if (make == nullptr) {
    throw UsageError(fmt::format(
        "{} ranks on GPUs need NCCL to sum their grids and move particles between GPUs, but it "
        "cannot be loaded: {}; accepted: NCCL installed (libnccl.so.2; README, \"Many GPUs and "
        "nodes\"), or a CPU scheduler",
        host.size(), error));
  }
  using Make = DeviceCommunicator* (*)(Communicator*, const char**);
  const char* failed = "";
  DeviceCommunicator* made = reinterpret_cast<Make>(make)(&host, &failed);
  if (made == nullptr) throw RunError(failed);
  return std::unique_ptr<DeviceCommunicator>(made);
}

Communicator* g_joined = nullptr;  // world(), once made

}  // namespace

// The variables of OpenMPI's mpirun, PMIx (srun --mpi=pmix, OpenMPI 5) and PMI (MPICH, srun
// --mpi=pmi2).
const char* launcher_variable() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    if (std::getenv(v) != nullptr) return v;
  }
  return nullptr;
}

Communicator& world() {
  static const std::unique_ptr<Communicator> ranks = []() -> std::unique_ptr<Communicator> {
    const char* variable = launcher_variable();
    if (variable == nullptr) return std::make_unique<OneRank>();
    return load_mpi(variable);
  }();
  g_joined = ranks.get();
  return *ranks;
}

void check_rank_count(uint32_t asked, const Communicator& comm) {
  if (asked == static_cast<uint32_t>(comm.size())) return;
  throw UsageError(fmt::format(
      "--ranks: {} but {} rank(s) started; accepted: the launcher's count (mpirun -n {}, srun -n "
      "{}), or no --ranks",
      asked, comm.size(), asked, asked));
}

Communicator* joined_ranks() {
  return g_joined != nullptr && g_joined->size() > 1 ? g_joined : nullptr;
}

DeviceCommunicator& device_world() {
  // Never destroyed: see ranks/nccl.cpp.
  static DeviceCommunicator* const gpus = load_nccl(world()).release();
  return *gpus;
}

}  // namespace sb::ranks
