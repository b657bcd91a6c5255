// The scheduler registry: the one place that lists every scheduler (sims: sims/registry.hpp).
#pragma once

#include <string>
#include <vector>

#include "schedulers/scheduler.hpp"

namespace sb {

// Every scheduler, in the order `schedbench list` shows them.
const std::vector<SchedulerEntry>& all_schedulers();

// The scheduler called `name`; UsageError naming the accepted names if there is none.
const SchedulerEntry& find_scheduler(const std::string& name);

struct SimInfo {
  std::string name;
  std::string description;
  std::vector<std::string> parameters;  // RunConfig fields it reads beyond init_n, capacity, seed
  void (*check)(const RunConfig&);      // throws UsageError where the sim rejects a value
  bool has_picture;                     // draws its particles (--density-png)
  uint32_t (*phase_count)(const RunConfig&);
};

// Every sim, in registry order.
const std::vector<SimInfo>& all_sims();

// The sim called `name`; UsageError naming the accepted names if there is none.
const SimInfo& find_sim(const std::string& name);

// Runs `c` with the scheduler and sim it names.
RunResult run(const RunConfig& c, const RunOptions& opt = {});

}  // namespace sb
