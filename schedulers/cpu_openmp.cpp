// cpu-openmp: OpenMP threads take particles with a dynamic schedule, each to the end of the
// phase. Children collect in per-thread lists and form the next generation, which is scheduled
// the same way, until a generation spawns nothing.
#include <omp.h>

#include <atomic>
#include <exception>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/host_driver.hpp"

namespace sb {
namespace {

template <class Sim>
struct CpuOpenmp {
  using Particle = typename Sim::Particle;

  static void run_phase(std::vector<Particle>& ps, const HostPhase<Sim>& ph) {
    // Slots asked for so far. Past the capacity, threads stop taking particles, so that memory
    // stays bounded; whether a run overflows does not depend on the order of work.
    std::atomic<uint64_t> slots{ps.size()};
    std::vector<std::vector<Particle>> children(static_cast<size_t>(omp_get_max_threads()));
    size_t begin = 0;
    while (begin < ps.size()) {
      const auto end = static_cast<int64_t>(ps.size());
      // An exception may not leave a parallel region (it would abort the process): the first
      // one is kept, the other threads stop taking particles, and it is rethrown after.
      std::exception_ptr failure;
      std::atomic<bool> failed{false};
#pragma omp parallel
      {
        std::vector<Particle>& mine = children[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 64)
        for (int64_t i = static_cast<int64_t>(begin); i < end; ++i) {
          if (slots.load(std::memory_order_relaxed) > ph.capacity ||
              failed.load(std::memory_order_relaxed))
            continue;
          try {
            Particle p = ps[i];
            run_to_end<Sim>(p, ph.params, ph.key, ph.window, [&](const Particle& child) {
              if (slots.fetch_add(1, std::memory_order_relaxed) >= ph.capacity) return;
              make_room(mine, mine.size() + 1, ph.capacity, "a thread's list of children");
              mine.push_back(child);
            });
            ps[i] = p;
          } catch (...) {
#pragma omp critical(sb_cpu_openmp_failure)
            if (!failure) failure = std::current_exception();
            failed = true;
          }
        }
      }
      if (failure) std::rethrow_exception(failure);
      if (slots.load() > ph.capacity) throw CapacityError(ph.capacity, slots.load());
      begin = ps.size();
      size_t total = ps.size();
      for (const std::vector<Particle>& list : children)
        total += list.size();
      make_room(ps, total, ph.capacity, "the particle list");
      for (std::vector<Particle>& list : children) {
        ps.insert(ps.end(), list.begin(), list.end());
        list.clear();
      }
    }
  }
};

}  // namespace

SchedulerEntry cpu_openmp_entry() {
  return {"cpu-openmp",
          "CPU, OpenMP threads over particles (dynamic schedule), children as later generations",
          SchedulerKind::kCpu,
          {},
          host_runners<CpuOpenmp>()};
}

}  // namespace sb
