#include "harness/job/catalog.hpp"

#include <filesystem>

#include "harness/io/atomic_file.hpp"
#include "harness/job/parameters.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog.hpp"

namespace sb {
namespace {

using nlohmann::json;

const char* role_name(ParameterRole r) {
  switch (r) {
    case ParameterRole::kWorkload:
      return "workload";
    case ParameterRole::kTuning:
      return "tuning";
    case ParameterRole::kBookkeeping:
      return "bookkeeping";
  }
  return "?";
}

const char* scope_name(ParameterScope s) {
  switch (s) {
    case ParameterScope::kEverySim:
      return "every sim";
    case ParameterScope::kSim:
      return "sim";
    case ParameterScope::kScheduler:
      return "scheduler";
    case ParameterScope::kGpuDriver:
      return "gpu driver";
  }
  return "?";
}

json policies_json(const SchedulerPolicies& policies) {
  json out = json::array();
  for (const PolicyInfo& p : policies.named) {
    json constants = json::object();
    for (const PolicyConstant& k : p.constants)
      constants[k.name] = k.value;
    out.push_back({{"name", p.name}, {"description", p.description}, {"constants", constants}});
  }
  return out;
}

json keys_of(const DeclaredParameters& declared) {
  json keys = json::array();
  for (const DeclaredParameter* p : declared)
    keys.push_back(p->key);
  return keys;
}

}  // namespace

const char* kind_name(SchedulerKind k) {
  switch (k) {
    case SchedulerKind::kCpu:
      return "cpu";
    case SchedulerKind::kGpu:
      return "gpu";
    case SchedulerKind::kYardstick:
      return "yardstick";
  }
  return "?";
}

json catalog_json() {
  json sims = json::array();
  for (const SimInfo& s : all_sims()) {
    sims.push_back({{"name", s.name},
                    {"description", s.description},
                    {"parameters", keys_of(s.parameters)},
                    {"has_picture", s.has_picture}});
  }
  json schedulers = json::array();
  for (const SchedulerEntry& e : all_schedulers()) {
    json keys = keys_of(e.launch);
    for (const json& key : keys_of(e.own_parameters()))
      keys.push_back(key);
    schedulers.push_back({{"name", e.name},
                          {"kind", kind_name(e.kind)},
                          {"description", e.description},
                          {"parameters", keys},
                          {"policies", policies_json(e.policies)}});
  }
  json params = json::array();
  for (const Parameter& p : parameters()) {
    params.push_back({{"key", p.key},
                      {"flag", p.flag},
                      {"help", p.help},
                      {"label", p.label},
                      {"role", role_name(p.role)},
                      {"scope", scope_name(p.scope)}});
  }
  return {{"schema", kCatalogSchema},
          {"sims", sims},
          {"schedulers", schedulers},
          {"parameters", params}};
}

void write_catalog_beside(const std::string& results_path) {
  const std::filesystem::path dir = std::filesystem::path(results_path).parent_path();
  write_file_atomically((dir / "catalog.json").string(), catalog_json().dump(2) + "\n");
}

}  // namespace sb
