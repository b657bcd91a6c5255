// cpu-openmp: OpenMP threads take the particles of the vector with a dynamic schedule, each run
// to the end of the phase and followed by its descendants, depth first
// (schedulers/depth_first.hpp). A thread gives survivors the slots of particles it ran itself that
// died, so that no two threads write one slot; those it has none for wait in its own list until the
// loop ends.
#include <omp.h>

#include <atomic>
#include <exception>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "schedulers/depth_first.hpp"
#include "schedulers/entries.hpp"
#include "schedulers/host_driver.hpp"

namespace sb {
namespace {

template <class Sim>
struct CpuOpenmp {
  using Particle = typename Sim::Particle;

  // The slots of all threads: a child holds one from its birth until it dies or takes a dead
  // particle's. Past the capacity, a birth is refused and threads stop taking particles, so that
  // memory stays bounded. Which slots free up when depends on the threads' order of work, so
  // near the capacity a run may fit or not from one run to the next; it always fits in `peak`.
  struct SharedSlots {
    std::atomic<uint64_t> in_use;
    std::atomic<uint64_t> most;
    uint64_t capacity;

    bool overflowed() const { return most.load(std::memory_order_relaxed) > capacity; }
  };

  // One thread's view of the slots, with its list of survivors that found no dead slot.
  struct Slots {
    SharedSlots& shared;
    std::vector<Particle> survivors;

    bool claim() {
      const uint64_t now = shared.in_use.fetch_add(1, std::memory_order_relaxed) + 1;
      uint64_t most = shared.most.load(std::memory_order_relaxed);
      // A failed exchange reloads `most`: another thread may have raised it past `now`.
      while (now > most && !shared.most.compare_exchange_weak(most, now, std::memory_order_relaxed))
        continue;
      return now <= shared.capacity;
    }
    void release() { shared.in_use.fetch_sub(1, std::memory_order_relaxed); }
    void append(const Particle& p) {
      make_room(survivors, survivors.size() + 1, shared.capacity, "a thread's list of survivors");
      survivors.push_back(p);
    }
  };

  struct Thread {
    DepthFirst<Sim> runner;
    Slots slots;
  };

  static HostTally run_phase(std::vector<Particle>& ps, const HostPhase<Sim>& ph) {
    SharedSlots shared{{ps.size()}, {ps.size()}, ph.capacity};
    std::vector<Thread> threads;
    threads.reserve(static_cast<size_t>(omp_get_max_threads()));
    for (int t = 0; t < omp_get_max_threads(); ++t)
      threads.push_back({DepthFirst<Sim>(ps, ph), Slots{shared, {}}});
    run_threads(ps.size(), shared, threads);
    if (shared.overflowed()) throw CapacityError(ph.capacity, shared.most.load());
    HostTally tally;
    tally.most_slots = shared.most.load();
    size_t total = ps.size();
    for (const Thread& t : threads) {
      tally.gone += t.runner.tally().gone;
      tally.gone_steps += t.runner.tally().gone_steps;
      total += t.slots.survivors.size();
    }
    make_room(ps, total, ph.capacity, "the particle list");
    for (const Thread& t : threads)
      ps.insert(ps.end(), t.slots.survivors.begin(), t.slots.survivors.end());
    return tally;
  }

  // Runs slots [0, n) over the threads. An exception may not leave a parallel region (it would
  // abort the process): the first one is kept, the other threads stop taking particles, and it is
  // rethrown after.
  static void run_threads(size_t n, const SharedSlots& shared, std::vector<Thread>& threads) {
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
#pragma omp parallel
    {
      Thread& mine = threads[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 64)
      for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
        if (shared.overflowed() || failed.load(std::memory_order_relaxed)) continue;
        try {
          mine.runner.run_slot(static_cast<size_t>(i), mine.slots);
        } catch (...) {
#pragma omp critical(sb_cpu_openmp_failure)
          if (!failure) failure = std::current_exception();
          failed = true;
        }
      }
    }
    if (failure) std::rethrow_exception(failure);
  }
};

}  // namespace

SchedulerEntry cpu_openmp_entry() {
  return {"cpu-openmp",
          "CPU, OpenMP threads over particles (dynamic schedule), children depth first in the "
          "slots of the dead",
          SchedulerKind::kCpu,
          {},
          host_runners<CpuOpenmp>()};
}

}  // namespace sb
