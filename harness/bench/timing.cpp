#include "harness/bench/timing.hpp"

#include <chrono>

#include "harness/bench/sampling.hpp"

namespace sb {

TimedRepetitions time_repetitions(int repetitions, const std::function<void(Repetition&)>& once) {
  TimedRepetitions out;
  for (int i = 0; i < repetitions; ++i) {
    Repetition rep;
    once(rep);
    if (!rep.error.empty()) {
      out.error = rep.error;
      break;
    }
    out.times_ms.push_back(rep.time_ms);
    out.counters_each.push_back(std::move(rep.counters));
  }
  return out;
}

void set_run_counters(Repetition& rep, const RunResult& r) {
  const auto steps = static_cast<double>(r.counts.particle_steps);
  auto& c = rep.counters;
  c["final"] = static_cast<double>(r.counts.final);
  c["spawned"] = static_cast<double>(r.counts.spawned);
  c["removed"] = static_cast<double>(r.counts.removed);
  c["particle_steps"] = steps;
  c["particle_steps_per_s"] = steps / (r.time_ms * 1e-3);
  c["ns_per_particle_step"] = r.time_ms * 1e6 / steps;
  for (const auto& [part, ms] : r.parts_ms)
    c[part + "_ms"] = ms;
  c["device_bytes"] = static_cast<double>(r.device_bytes);
  c["reduce_ms"] = r.reduce_ms;
}

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

TimedRepetitions time_sampled(const Sampling& s, const std::function<void(Repetition&)>& once,
                              const std::function<double()>& clock_s) {
  TimedRepetitions all;
  const double start_s = clock_s();
  int batch = s.repetitions > 0 ? s.repetitions : s.min_samples;
  while (true) {
    TimedRepetitions more = time_repetitions(batch, once);
    all.times_ms.insert(all.times_ms.end(), more.times_ms.begin(), more.times_ms.end());
    all.counters_each.insert(all.counters_each.end(), more.counters_each.begin(),
                             more.counters_each.end());
    all.error = more.error;
    const double wall_s = clock_s() - start_s;
    if (!all.error.empty() || all.times_ms.empty() || enough_samples(s, all.times_ms, wall_s))
      break;
    batch = next_batch(s, static_cast<int>(all.times_ms.size()), wall_s);
  }
  return all;
}

}  // namespace sb
