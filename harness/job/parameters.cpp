#include "harness/job/parameters.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/run_parameters.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog.hpp"

namespace sb {
namespace {

using nlohmann::json;

// A declared value as results record it: typed by its kind; null where an optional one, or one
// whose default is not recorded, is not given.
json declared_value_json(const DeclaredParameter& d, const RunConfig& c) {
  if (!d.given(c) && (!d.fallback || !d.record_default)) return nullptr;
  switch (d.kind) {
    case ValueKind::kWhole:
      if (d.whole(c) == 0 && !d.zero_word.empty()) return d.zero_word;
      return d.whole(c);
    case ValueKind::kReal:
      return d.real(c);
    case ValueKind::kSwitch:
      return d.on(c);
    case ValueKind::kChoice:
    case ValueKind::kText:
      return d.text(c);
  }
  return nullptr;
}

const Parameter* find_if_key(const std::vector<Parameter>& rows, const std::string& key) {
  for (const Parameter& p : rows) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

using ByOwner = std::vector<std::pair<std::string, const DeclaredParameter*>>;

// The owners of the rows that every run has and of the GPU driver's knobs.
constexpr const char* kEveryRun = "every run";
constexpr const char* kGpuDriver = "GPU driver";

// Who owns a declared parameter in the run `c`: its sim, its scheduler, or the one owner of a
// row that every run or every GPU run has.
const std::string& owner(const Parameter& p, const RunConfig& c) {
  switch (p.scope) {
    case ParameterScope::kSim:
      return c.sim;
    case ParameterScope::kScheduler:
      return p.refused_where_unread ? c.scheduler : p.declarations.front().first;
    case ParameterScope::kEverySim:
    case ParameterScope::kGpuDriver:
      break;
  }
  return p.declarations.front().first;
}

// The declaration of `p` by the run's sim or scheduler, or null if it declares none.
const DeclaredParameter* own_declaration(const Parameter& p, const RunConfig& c) {
  for (const auto& [name, d] : p.declarations) {
    if (name == owner(p, c)) return d;
  }
  return nullptr;
}

// Checks a value for `p`, given where no owner of it reads it (a job's axis that applies to none
// of its points, an option the run's sim or scheduler will refuse), by every owner that declares
// it, and stores it nowhere: a bad value is still bad input, and the run that does not read it
// refuses it after (check_parameters). With no owner that accepts it, the message names every
// value that some declaration of a choice accepts.
void check_unread(const Parameter& p, const std::string& where, const std::string& text) {
  std::vector<std::string> choices;
  bool all_choices = true;
  for (const auto& [name, d] : p.declarations) {
    RunConfig scratch;
    try {
      return d->set(scratch, where, text);
    } catch (const UsageError&) {
      all_choices = all_choices && d->kind == ValueKind::kChoice;
      for (const std::string& v : d->choices) {
        if (std::find(choices.begin(), choices.end(), v) == choices.end()) choices.push_back(v);
      }
    }
  }
  // Declarations of different kinds: the first one's message (it refused the value above).
  if (!all_choices) {
    RunConfig scratch;
    p.declarations.front().second->set(scratch, where, text);
  }
  throw UsageError(fmt::format(
      "{}: '{}' is not accepted by any {} that reads it; accepted: {}", where, printable(text),
      p.scope == ParameterScope::kSim ? "sim" : "scheduler", fmt::join(choices, ", ")));
}

// Checks and stores a value for `p` as the run's owner declares it: its sim for a sim's parameter,
// its scheduler for a scheduler's own, the one declaration of what every run or the GPU driver
// reads. Where the owner does not declare it, check_unread.
void set_declared(const Parameter& p, RunConfig& c, const std::string& where,
                  const std::string& text) {
  const DeclaredParameter* d = own_declaration(p, c);
  if (d == nullptr) return check_unread(p, where, text);
  // Where owners declare it each their own way, the message names whose values it gives.
  const bool shared = std::all_of(p.declarations.begin(), p.declarations.end(),
                                  [d](const auto& other) { return other.second == d; });
  d->set(c, shared ? where : fmt::format("{} ({})", where, owner(p, c)), text);
}

// The row of a key from its declarations. Owners that share a parameter share its declaration
// (steps_parameter()); owners may also declare one key, of one meaning and kind, each with its own
// values (pic's and air's --grid and --cross-section; each pooled scheduler's --policy names its
// own policies), and the row then checks and reads by the run's owner.
Parameter declared_row(const ByOwner& by_owner, ParameterScope scope, ParameterRole role,
                       bool refused_where_unread) {
  const DeclaredParameter& first = *by_owner.front().second;
  std::vector<std::string> helps;
  for (const auto& [name, d] : by_owner) {
    if (d->flag != first.flag ||
        (d->kind == ValueKind::kSwitch) != (first.kind == ValueKind::kSwitch)) {
      throw std::logic_error(
          fmt::format("{}: its owners declare it with different flags or kinds", d->key));
    }
    if (std::find(helps.begin(), helps.end(), d->help) == helps.end()) helps.push_back(d->help);
  }
  Parameter row{first.key,
                first.flag,
                fmt::format("{}", fmt::join(helps, "; ")),
                first.label,
                first.role.value_or(role),
                scope,
                first.kind == ValueKind::kSwitch,
                refused_where_unread,
                nullptr,
                nullptr};
  row.declarations = by_owner;
  row.set = [row_key = first.key](RunConfig& c, const std::string& f, const std::string& t) {
    set_declared(*find_parameter(row_key), c, f, t);
  };
  row.get = [row_key = first.key](const RunConfig& c) {
    const Parameter& p = *find_parameter(row_key);
    const DeclaredParameter* d = own_declaration(p, c);
    return declared_value_json(d != nullptr ? *d : *p.declarations.front().second, c);
  };
  return row;
}

// One row per key that the owners declare, in the order they first declare them.
void add_declared_rows(const std::vector<std::pair<std::string, DeclaredParameters>>& owners,
                       ParameterScope scope, ParameterRole role, bool refused_where_unread,
                       std::vector<Parameter>& out) {
  std::vector<std::string> keys;
  std::map<std::string, ByOwner> by_key;
  for (const auto& [name, declared] : owners) {
    for (const DeclaredParameter* d : declared) {
      if (by_key.count(d->key) == 0) keys.push_back(d->key);
      by_key[d->key].emplace_back(name, d);
    }
  }
  for (const std::string& key : keys) {
    if (find_if_key(out, key) != nullptr) {
      throw std::logic_error(key + ": declared by a sim and a scheduler, or a common parameter");
    }
    out.push_back(declared_row(by_key[key], scope, role, refused_where_unread));
  }
}

template <class T>
bool contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

std::string option_of(std::string key) {
  std::replace(key.begin(), key.end(), '_', '-');
  return "--" + key;
}

const std::vector<Parameter>& parameters() {
  static const std::vector<Parameter> table = [] {
    std::vector<Parameter> out;
    add_declared_rows({{kEveryRun, every_run::parameters()}}, ParameterScope::kEverySim,
                      ParameterRole::kWorkload, false, out);
    std::vector<std::pair<std::string, DeclaredParameters>> sims, schedulers;
    for (const SimInfo& sim : all_sims())
      sims.emplace_back(sim.name, sim.parameters);
    add_declared_rows(sims, ParameterScope::kSim, ParameterRole::kWorkload, true, out);
    add_declared_rows({{kGpuDriver, launch_knobs::grid_shape()}}, ParameterScope::kScheduler,
                      ParameterRole::kTuning, false, out);
    add_declared_rows({{kGpuDriver, launch_knobs::every_gpu_run()}}, ParameterScope::kGpuDriver,
                      ParameterRole::kTuning, false, out);
    for (const SchedulerEntry& e : all_schedulers())
      schedulers.emplace_back(e.name, e.own_parameters());
    add_declared_rows(schedulers, ParameterScope::kScheduler, ParameterRole::kTuning, true, out);
    return out;
  }();
  return table;
}

const Parameter* find_parameter(const std::string& key) {
  return find_if_key(parameters(), key);
}

namespace {

// The declaration that the run's sim or scheduler renamed from `key`, or null.
const DeclaredParameter* renamed_from(const std::string& key, const RunConfig& c) {
  for (const Parameter& p : parameters()) {
    for (const auto& [name, d] : p.declarations) {
      if (d->renamed_from == key && (name == c.sim || name == c.scheduler)) return d;
    }
  }
  return nullptr;
}

}  // namespace

const Parameter* parameter_for(const std::string& key, const RunConfig& c) {
  const Parameter* p = find_parameter(key);
  if (p != nullptr && own_declaration(*p, c) != nullptr) return p;
  const DeclaredParameter* d = renamed_from(key, c);
  return d == nullptr ? p : find_parameter(d->key);
}

const Parameter* set_parameter(const std::string& key, RunConfig& c, const std::string& where,
                               const std::string& text) {
  const Parameter* p = parameter_for(key, c);
  if (p == nullptr) return nullptr;
  p->set(c, where, text);
  static std::set<std::string> noted;
  if (p->key != key && noted.insert(owner(*p, c) + "\n" + key).second) {
    fmt::print(stderr, "note: {}'s {} is now {} (key {}); read as such\n", owner(*p, c),
               option_of(key), p->flag, p->key);
  }
  return p;
}

std::vector<std::pair<std::string, const Parameter*>> renamed_keys() {
  std::vector<std::pair<std::string, const Parameter*>> out;
  for (const Parameter& p : parameters()) {
    for (const auto& [name, d] : p.declarations) {
      if (!d->renamed_from.empty() && find_parameter(d->renamed_from) == nullptr)
        out.emplace_back(d->renamed_from, &p);
    }
  }
  return out;
}

RunOwners owners_of(const RunConfig& c) {
  return {find_sim(c.sim), find_scheduler(c.scheduler)};
}

bool applies(const Parameter& p, const RunOwners& o) {
  switch (p.scope) {
    case ParameterScope::kEverySim:
      return true;
    case ParameterScope::kSim:
      return reads(o.sim, p.key);
    case ParameterScope::kScheduler: {
      const DeclaredParameters own = o.scheduler.own_parameters();
      for (const auto& [name, d] : p.declarations) {
        if (contains(o.scheduler.launch, d) || contains(own, d)) return true;
      }
      return false;
    }
    case ParameterScope::kGpuDriver:
      return o.scheduler.kind != SchedulerKind::kCpu;
  }
  return false;
}

bool applies(const Parameter& p, const RunConfig& c) {
  return applies(p, owners_of(c));
}

namespace {

// Without `with_unset`, a parameter without a value (one whose default is the sim's choice) is
// left out: no output holds null.
json config_of(const RunConfig& c, const RunOwners& owners, bool with_unset) {
  json j{{"sim", c.sim}, {"scheduler", c.scheduler}};
  for (const Parameter& p : parameters()) {
    if (!applies(p, owners)) continue;
    if (json v = p.get(c); with_unset || !v.is_null()) j[p.key] = std::move(v);
  }
  return j;
}

}  // namespace

json config_json(const RunConfig& c, const RunOwners& owners) {
  return config_of(c, owners, false);
}

json config_with_unset(const RunConfig& c) {
  return config_of(c, owners_of(c), true);
}

json recorded_config(const json& config) {
  json out = config;
  for (auto it = out.begin(); it != out.end();)
    it = it->is_null() ? out.erase(it) : std::next(it);
  return out;
}

std::string shown_value(const json& v) {
  if (v.is_null()) return "-";
  return v.is_string() ? v.get<std::string>() : v.dump();
}

json config_json(const RunConfig& c) {
  return config_json(c, owners_of(c));
}

RunConfig config_from_json(const json& j, const std::string& where) {
  if (!j.is_object() || !j.contains("sim") || !j.contains("scheduler")) {
    throw UsageError(fmt::format("{}: a configuration needs \"sim\" and \"scheduler\"", where));
  }
  RunConfig c;
  c.sim = j["sim"].get<std::string>();
  c.scheduler = j["scheduler"].get<std::string>();
  std::vector<std::string> given;
  for (const auto& [key, value] : j.items()) {
    if (key == "sim" || key == "scheduler" || value.is_null()) continue;
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    const Parameter* p = set_parameter(key, c, where + ": " + key, text);
    if (p == nullptr) throw UsageError(fmt::format("{}: {}: not a parameter", where, key));
    given.push_back(p->key);
  }
  check_parameters(c, given);
  return c;
}

void check_config(const RunConfig& c, const std::vector<std::string>& given) {
  check_parameters(c, given);
  check_sim(c);
}

void check_sim(const RunConfig& c) {
  const SimInfo& sim = find_sim(c.sim);
  sim.check(c);
  launch_knobs::check_batch(c, sim.streams(c));
}

void check_parameters(const RunConfig& c, const std::vector<std::string>& given) {
  const RunOwners owners = owners_of(c);
  for (const Parameter& p : parameters()) {
    const bool was_given = contains(given, p.key);
    if (p.refused_where_unread && was_given && !applies(p, owners)) {
      std::vector<std::string> names;
      for (const auto& [name, d] : p.declarations)
        names.push_back(name);
      throw UsageError(fmt::format("{}: does not apply to {} {}; it applies to: {}", p.flag,
                                   p.scope == ParameterScope::kSim ? "sim" : "scheduler",
                                   owner(p, c), fmt::join(names, ", ")));
    }
    const DeclaredParameter* d = own_declaration(p, c);
    if (d != nullptr && d->required && !was_given && applies(p, owners)) {
      throw UsageError(
          fmt::format("{}: required for sim {} ({})", p.flag, owners.sim.name, p.help));
    }
  }
  // --capacity bounds each rank's slots: the largest initial share must fit (docs/design.md §10).
  const uint64_t ranks = c.ranks;
  const uint64_t share = c.init_n / ranks + (c.init_n % ranks == 0 ? 0 : 1);
  if (share > c.capacity && ranks == 1) {
    throw UsageError(fmt::format("--capacity: {} is below --init-n {}; accepted: at least {}",
                                 c.capacity, c.init_n, c.init_n));
  }
  if (share > c.capacity) {
    throw UsageError(fmt::format(
        "--capacity: {} is below {}, the largest of {} ranks' shares of --init-n {}; accepted: at "
        "least {}",
        c.capacity, share, ranks, c.init_n, share));
  }
}

}  // namespace sb
