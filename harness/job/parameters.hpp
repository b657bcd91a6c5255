// The table of run parameters, shared by the command line, job files, result JSON and the catalog,
// made from the declarations of the code that reads each (core/declared_parameter.hpp): what every
// run has (core/run_parameters.hpp), the sims' (Sim::parameters()), the GPU driver's launch knobs
// (schedulers/device/launch_parameters.hpp) and the schedulers' own
// (SchedulerEntry::own_parameters()). No row is written here.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"
#include "schedulers/scheduler.hpp"
#include "sims/catalog.hpp"

namespace sb {

enum class ParameterScope {
  kEverySim,   // every sim reads it
  kSim,        // declared by the sims that read it (Sim::parameters())
  kScheduler,  // read by the schedulers that list it in SchedulerEntry::launch or declare it
  kGpuDriver,  // read by the GPU driver: every GPU scheduler and the bound
};

struct Parameter {
  std::string key;    // job-file and JSON key, e.g. "init_n"
  std::string flag;   // command-line option, e.g. "--init-n"
  std::string help;   // one line for --help
  std::string label;  // axis label in figures, e.g. "initial particles"
  ParameterRole role;
  ParameterScope scope;
  bool is_switch;  // a command-line flag without a value
  // Given to a run that does not read it: refused (a sim's or scheduler's own), or ignored with a
  // note from `run` (the GPU driver's launch knobs, which a job's axis or a command line may give
  // to any scheduler).
  bool refused_where_unread;
  std::function<void(RunConfig&, const std::string& flag, const std::string& text)>
      set;  // checks the value
  std::function<nlohmann::json(const RunConfig&)> get;
  // Each owner that declares it (a sim's or a scheduler's name, or "every run" and "GPU driver"),
  // with its declaration.
  std::vector<std::pair<std::string, const DeclaredParameter*>> declarations = {};
};

const std::vector<Parameter>& parameters();

// The row for `key`, or nullptr.
const Parameter* find_parameter(const std::string& key);

// The row that `key` means in a run of `c`'s sim and scheduler: where the run's sim or scheduler
// renamed it (DeclaredParameter::renamed_from), the new key's; otherwise find_parameter's.
const Parameter* parameter_for(const std::string& key, const RunConfig& c);

// Sets the value `text` given for `key` (option or file key `where`) into `c` by the row that
// parameter_for names, which it returns; for an old key, a note on stderr the first time. Null,
// and nothing set, where `key` is no parameter.
const Parameter* set_parameter(const std::string& key, RunConfig& c, const std::string& where,
                               const std::string& text);

// The command-line option of a key: "cross_sections" -> "--cross-sections".
std::string option_of(std::string key);

// The old keys of renamed parameters that are no row's key (air's cross_sections), each with the
// row of a parameter it was renamed to: what the command line and job files still read.
std::vector<std::pair<std::string, const Parameter*>> renamed_keys();

// The sim and scheduler a configuration names, looked up once.
struct RunOwners {
  const SimInfo& sim;
  const SchedulerEntry& scheduler;
};
RunOwners owners_of(const RunConfig& c);  // UsageError naming the accepted names

// Whether `p` applies to the sim and scheduler of a run.
bool applies(const Parameter& p, const RunOwners& owners);
bool applies(const Parameter& p, const RunConfig& c);

// The configuration as JSON: sim, scheduler and every parameter that applies and has a value (a
// parameter whose value is the sim's choice, e.g. --grid not given, is left out).
nlohmann::json config_json(const RunConfig& c, const RunOwners& owners);
nlohmann::json config_json(const RunConfig& c);
// config_json with the parameters left out there as null: what labels are made of, so that a
// point at the sim's choice is told from one with a value ("grid-default", "grid-64").
nlohmann::json config_with_unset(const RunConfig& c);

// A configuration as a results file recorded it, in today's form: values that files written
// before values left to the sim were left out record as null, left out.
nlohmann::json recorded_config(const nlohmann::json& config);

// A configuration's value as a person reads it in a table or a banner: text without quotes,
// numbers as JSON writes them, and "-" for a value not given.
std::string shown_value(const nlohmann::json& v);

// The configuration `config_json` wrote, read back and checked but for the sim's own check (which
// resolve() makes as it builds the run's setup); UsageError names `where`. Old keys of renamed
// parameters read as the new ones.
RunConfig config_from_json(const nlohmann::json& j, const std::string& where);

// Checks that `c` can run: the sim and scheduler exist, every required parameter applies and was
// given (`given` holds the keys set by the user), no given sim parameter is foreign to the sim,
// and the sim accepts the values (building the run's setup once). Throws UsageError.
void check_config(const RunConfig& c, const std::vector<std::string>& given);

// The sim's own check of `c` (SimInfo::check: its setup is built once and dropped), and the
// refusal of --batch for a variant that does not stream. Throws UsageError.
void check_sim(const RunConfig& c);

// check_config but for the sim's own check (SimInfo::check), which can be slow (pic builds its
// tables), for a caller that checks many configurations: that check reads only the sim's
// parameters (Sim::parameters()) and --batch (check_sim), so it needs to run
// once for each distinct set of their values.
void check_parameters(const RunConfig& c, const std::vector<std::string>& given);

}  // namespace sb
