#include "harness/job/run_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/device.hpp"
#include "harness/io/environment.hpp"
#include "harness/job/parameters.hpp"
#include "harness/job/phase_averages.hpp"
#include "sims/catalog.hpp"

namespace sb {
namespace {

using nlohmann::json;

double steps_per_second(const RunResult& r) {
  return r.time_ms > 0 ? static_cast<double>(r.counts.particle_steps) / (r.time_ms * 1e-3) : 0.0;
}

double ns_per_step(const RunResult& r) {
  return r.counts.particle_steps > 0
             ? r.time_ms * 1e6 / static_cast<double>(r.counts.particle_steps)
             : 0.0;
}

double record_bytes_per_step(const Counts& n) {
  return n.particle_steps > 0
             ? static_cast<double>(n.record_bytes) / static_cast<double>(n.particle_steps)
             : 0.0;
}

// The particle-record traffic and the time the device's peak bandwidth needs for it (a GPU run).
std::string memory_line(const RunResult& r) {
  const auto device = describe_device();
  const double bandwidth = device ? peak_bandwidth_bytes_per_s(*device) : 0.0;
  std::string s = fmt::format("  record traffic  {:.3g} GB ({:.3g} B per particle-step)",
                              static_cast<double>(r.counts.record_bytes) / 1e9,
                              record_bytes_per_step(r.counts));
  if (bandwidth > 0) {
    s +=
        fmt::format(": {:.3g} ms at the peak {:.3g} TB/s",
                    static_cast<double>(r.counts.record_bytes) / bandwidth * 1e3, bandwidth / 1e12);
  }
  return s + "\n";
}

// One object per phase; a quantity that is not a number (no electrons left) is left out.
json observables_json(const std::vector<Observables>& phases) {
  json out = json::array();
  for (const Observables& o : phases) {
    json phase = json::object();
    for (const auto& [name, value] : o) {
      if (std::isfinite(value)) phase[name] = value;
    }
    out.push_back(phase);
  }
  return out;
}

// The sim's summary of the run: its numbers (those that are not numbers left out) and its
// profiles, a column each.
json summary_json(const RunSummary& summary) {
  json values = json::object(), profiles = json::object();
  for (const auto& [name, value] : summary.values) {
    if (std::isfinite(value)) values[name] = value;
  }
  for (const auto& [name, column] : summary.profiles) profiles[name] = column;
  return {{"values", values}, {"profiles", profiles}};
}

// The summary's numbers as text, a line each; its profiles are in the JSON.
std::string summary_table(const RunSummary& summary) {
  std::string s = "  summary         (its profiles: run --json)\n";
  for (const auto& [name, value] : summary.values) s += fmt::format("    {:<38} {:>12.6g}\n", name, value);
  return s;
}

// The standard error that phase `o` gives for its quantity `name`, or nullptr.
const double* own_error(const Observables& o, const std::string& name) {
  const std::string key = name + kErrorSuffix;
  for (const auto& [other, value] : o) {
    if (other == key) return &value;
  }
  return nullptr;
}

// A table with a row per phase and a column per quantity, each with its phase's standard error
// beside it where the sim gives one (and it is a number).
std::string observables_table(const std::vector<Observables>& phases) {
  if (phases.empty()) return "";
  const Observables& first = phases.front();
  std::vector<size_t> widths;
  std::string s = "  observables per phase\n    phase";
  for (const auto& [name, value] : first) {
    if (is_phase_error(name)) continue;
    widths.push_back(std::max<size_t>(own_error(first, name) ? 21 : 11, name.size()));
    s += fmt::format(" {:>{}}", name, widths.back());
  }
  s += "\n";
  for (size_t k = 0; k < phases.size(); ++k) {
    s += fmt::format("    {:>5}", k);
    size_t column = 0;
    for (const auto& [name, value] : phases[k]) {
      if (is_phase_error(name)) continue;
      const double* error = own_error(phases[k], name);
      const std::string cell = error && std::isfinite(*error)
                                   ? fmt::format("{:.5g} ± {:.2g}", value, *error)
                                   : fmt::format("{:.5g}", value);
      s += fmt::format(" {:>{}}", cell, widths[column++]);
    }
    s += "\n";
  }
  return s;
}

// The averages as JSON: {name: {mean, error, phases}}, with `from`, the first phase averaged; a
// mean or error that is not a number is left out.
json averages_json(const std::vector<Observables>& phases, uint32_t from) {
  json out = {{"from", from}};
  for (const PhaseAverage& a : phase_averages(phases, from)) {
    if (!std::isfinite(a.mean)) continue;
    json one = {{"mean", a.mean}, {"phases", a.phases}};
    if (std::isfinite(a.error)) one["error"] = a.error;
    out[a.name] = one;
  }
  return out;
}

// The averages as text: a line per observable, mean and standard error.
std::string averages_table(const std::vector<Observables>& phases, uint32_t from) {
  if (phases.empty() || from >= phases.size()) return "";
  std::string s = fmt::format(
      "  averages        over phases {} to {} (one standard error, from blocks of phases)\n", from,
      phases.size() - 1);
  for (const PhaseAverage& a : phase_averages(phases, from)) {
    s += fmt::format("    {:<38} {:>12.6g} ± {:.2g}\n", a.name, a.mean, a.error);
  }
  return s;
}

// The sim's real events (kWorkObservable) over the run, per second of its time; NaN where it
// names none.
double work_per_second(const RunConfig& c, const RunResult& r) {
  const SimInfo* sim = listed_sim(c.sim);
  if (sim == nullptr || sim->work_observable == nullptr || !(r.time_ms > 0)) return NAN;
  double total = 0;
  for (const Observables& o : r.observables) {
    for (const auto& [name, value] : o) {
      if (name == sim->work_observable) total += value;
    }
  }
  return total / (r.time_ms * 1e-3);
}

// Gigabytes per second of `bytes` copied in `ms`; 0 where nothing was timed.
double gb_per_s(uint64_t bytes, double ms) {
  return ms > 0 ? static_cast<double>(bytes) / (ms * 1e6) : 0.0;
}

json streaming_json(const Streaming& s) {
  return {{"batch_slots", s.batch_slots},
          {"batches", s.batches},
          {"bytes_to_device", s.bytes_to_device},
          {"bytes_to_host", s.bytes_to_host},
          {"to_device_ms", s.to_device_ms},
          {"to_host_ms", s.to_host_ms},
          {"to_device_GB_per_s", gb_per_s(s.bytes_to_device, s.to_device_ms)},
          {"to_host_GB_per_s", gb_per_s(s.bytes_to_host, s.to_host_ms)}};
}

}  // namespace

std::string digest_hex(uint64_t digest) {
  return fmt::format("{:#018x}", digest);
}

json result_json(const RunConfig& c, const RunResult& r, std::optional<uint32_t> average_from) {
  const Counts& n = r.counts;
  json out = {{"counts",
               {{"initial", n.initial},
                {"final", n.final},
                {"spawned", n.spawned},
                {"removed", n.removed},
                {"particle_steps", n.particle_steps},
                {"peak", n.peak},
                {"slots_used", n.slots_used},
                {"peak_live", n.peak_live},
                {"record_bytes", n.record_bytes}}},
              {"slots_per_live", slots_per_live(n)},
              {"record_bytes_per_particle_step", record_bytes_per_step(n)},
              {"time_ms", r.time_ms},
              {"parts_ms", r.parts_ms},
              {"particle_steps_per_s", steps_per_second(r)},
              {"ns_per_particle_step", ns_per_step(r)},
              {"digest", digest_hex(r.digest)},
              {"device_bytes", r.device_bytes},
              {"ranks", r.ranks},
              {"moved_particles", r.moved},
              {"moved_bytes", r.moved_bytes},
              {"reduced_bytes", r.reduced_bytes},
              {"reduce_ms", r.reduce_ms},
              {"imbalance", {{"before", r.imbalance_before}, {"after", r.imbalance_after}}},
              {"observables", observables_json(r.observables)}};
  if (!r.observables.empty()) {
    out["averages"] =
        averages_json(r.observables, average_start(r.observables.size(), average_from));
  }
  const double work = work_per_second(c, r);
  if (std::isfinite(work)) out[std::string(listed_sim(c.sim)->work_observable) + "_per_s"] = work;
  if (r.streaming) out["streaming"] = streaming_json(*r.streaming);
  if (r.summary) out["summary"] = summary_json(*r.summary);
  return out;
}

json run_json(const json& config, const RunConfig& c, const RunResult& r,
              std::optional<uint32_t> average_from) {
  return {{"schema", kRunSchema},
          {"config", config},
          {"result", result_json(c, r, average_from)},
          {"environment", environment_json()}};
}

std::string run_summary(const RunConfig& c, const RunResult& r,
                        std::optional<uint32_t> average_from) {
  const Counts& n = r.counts;
  std::string s = fmt::format("{} with {}\n", c.sim, c.scheduler);
  s += fmt::format("  particles       initial {}  final {}  most alive {} (at a phase boundary)\n",
                   n.initial, n.final, n.peak_live);
  s += fmt::format(
      "  slots           used {} ({:.3g} per live particle); a phase held {} particles\n",
      n.slots_used, slots_per_live(n), n.peak);
  s += fmt::format("  events          spawned {}  removed {}\n", n.spawned, n.removed);
  s += fmt::format("  particle-steps  {}\n", n.particle_steps);
  s += fmt::format("  time            {:.3f} ms\n", r.time_ms);
  for (const auto& [part, ms] : r.parts_ms)
    s += fmt::format("    {:<13} {:.3f} ms\n", part, ms);
  s += fmt::format("  rate            {:.4g} particle-steps/s  ({:.4g} ns per particle-step)\n",
                   steps_per_second(r), ns_per_step(r));
  const double work = work_per_second(c, r);
  if (std::isfinite(work)) {
    s += fmt::format("                  {:.4g} {}/s\n", work, listed_sim(c.sim)->work_observable);
  }
  if (r.device_bytes > 0) {
    s += fmt::format("  device memory   {:.3g} GB at most\n",
                     static_cast<double>(r.device_bytes) / 1e9);
    s += memory_line(r);
  }
  if (r.streaming) {
    const Streaming& t = *r.streaming;
    s += fmt::format(
        "  streamed        {} batches of {} device slots; {:.3g} GB in at {:.3g} GB/s, {:.3g} GB "
        "out at {:.3g} GB/s (copies overlap the compute)\n",
        t.batches, t.batch_slots, static_cast<double>(t.bytes_to_device) / 1e9,
        gb_per_s(t.bytes_to_device, t.to_device_ms), static_cast<double>(t.bytes_to_host) / 1e9,
        gb_per_s(t.bytes_to_host, t.to_host_ms));
  }
  if (r.ranks > 1) {
    s += fmt::format("  ranks           {}: {} particles ({:.3g} MB) moved between them\n", r.ranks,
                     r.moved, static_cast<double>(r.moved_bytes) / 1e6);
    s += fmt::format(
        "                  {:.3g} MB of grids reduced in {:.3f} ms; most on a rank over "
        "the mean {:.3f} before rebalancing, {:.3f} after\n",
        static_cast<double>(r.reduced_bytes) / 1e6, r.reduce_ms, r.imbalance_before,
        r.imbalance_after);
  }
  s += observables_table(r.observables);
  s += averages_table(r.observables, average_start(r.observables.size(), average_from));
  if (r.summary) s += summary_table(*r.summary);
  s += fmt::format("  digest          {}\n", digest_hex(r.digest));
  return s;
}

}  // namespace sb
