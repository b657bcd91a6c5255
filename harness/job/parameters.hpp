// The table of run parameters, shared by the command line, job files, result JSON and the catalog:
// the rows of what every run has and of the GPU driver's knobs are here; the sims' and the
// schedulers' own are made from their declarations (Sim::parameters(),
// SchedulerEntry::own_parameters(), core/declared_parameter.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"

namespace sb {

enum class ParameterScope {
  kEverySim,   // every sim reads it
  kSim,        // declared by the sims that read it (Sim::parameters())
  kScheduler,  // read by the schedulers that list it in SchedulerEntry::parameters or declare it
  kGpuDriver,  // read by the GPU driver: every GPU scheduler and the bound
};

// What a parameter is to a measurement, for the sweep's results and the plots
// (`schedbench list --json`).
enum class ParameterRole {
  kWorkload,     // changes what is computed
  kTuning,       // changes how fast, never the result: a scheduler is compared at its best value
  kBookkeeping,  // changes neither (capacity, the watchdog's timeout)
};

struct Parameter {
  std::string key;    // job-file and JSON key, e.g. "init_n"
  std::string flag;   // command-line option, e.g. "--init-n"
  std::string help;   // one line for --help
  std::string label;  // axis label in figures, e.g. "initial particles"
  ParameterRole role;
  ParameterScope scope;
  bool is_switch;  // a command-line flag without a value
  bool required;   // must be given wherever it applies
  std::function<void(RunConfig&, const std::string& flag, const std::string& text)>
      set;  // checks the value
  std::function<nlohmann::json(const RunConfig&)> get;
  // For a declared parameter: each sim or scheduler that declares it, with its declaration
  // (core/declared_parameter.hpp).
  std::vector<std::pair<std::string, const DeclaredParameter*>> declarations = {};
};

const std::vector<Parameter>& parameters();

// The row for `key`, or nullptr.
const Parameter* find_parameter(const std::string& key);

// Whether `p` applies to the sim and scheduler that `c` names (both must exist).
bool applies(const Parameter& p, const RunConfig& c);

// The configuration as JSON: sim, scheduler and every parameter that applies.
nlohmann::json config_json(const RunConfig& c);

// The configuration `config_json` wrote, read back and checked; UsageError names `where`.
RunConfig config_from_json(const nlohmann::json& j, const std::string& where);

// Checks that `c` can run: the sim and scheduler exist, every required parameter applies and was
// given (`given` holds the keys set by the user), no given sim parameter is foreign to the sim,
// and the sim accepts the values. Throws UsageError.
void check_config(const RunConfig& c, const std::vector<std::string>& given);

// check_config but for the sim's own check (SimInfo::check), which can be slow (pic builds its
// tables), for a caller that checks many configurations: that check reads only the sim's
// parameters (Sim::parameters()), so it needs to run once for each distinct set of their values.
void check_parameters(const RunConfig& c, const std::vector<std::string>& given);

}  // namespace sb
