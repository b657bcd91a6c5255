#include "harness/job/parameters.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/values.hpp"
#include "schedulers/compaction_variants.hpp"
#include "schedulers/registry.hpp"
#include "sims/catalog.hpp"

namespace sb {
namespace {

using nlohmann::json;

uint32_t parse_block_size(const std::string& flag, const std::string& text) {
  const uint64_t b = parse_whole(flag, text, 32, 1024);
  if (b % 32 != 0) {
    throw UsageError(fmt::format("{}: '{}' is not a multiple of 32 from 32 to 1024", flag, text));
  }
  return static_cast<uint32_t>(b);
}

uint32_t parse_blocks_per_sm(const std::string& flag, const std::string& text) {
  if (text == "fill") return 0;
  try {
    return static_cast<uint32_t>(parse_whole(flag, text, 1, 32));
  } catch (const UsageError&) {
    throw UsageError(fmt::format(
        "{}: '{}' is not accepted; accepted: fill (the occupancy maximum) or a whole number from 1 "
        "to 32, written in decimal",
        flag, printable(text)));
  }
}

// What every run has: the rows of RunConfig's common fields.
std::vector<Parameter> common_parameters() {
  return {
      {"init_n", "--init-n", "initial number of particles", "initial particles",
       ParameterRole::kWorkload, ParameterScope::kEverySim, false, true,
       [](RunConfig& c, const std::string& f, const std::string& t) {
         c.init_n = parse_whole(f, t, 1, kMaxCount);
       },
       [](const RunConfig& c) { return json(c.init_n); }},
      {"capacity", "--capacity", "most particle slots the run may use (default 1e8)",
       "particle slots (capacity)", ParameterRole::kBookkeeping, ParameterScope::kEverySim, false,
       false,
       [](RunConfig& c, const std::string& f, const std::string& t) {
         c.capacity = parse_whole(f, t, 1, kMaxCount);
       },
       [](const RunConfig& c) { return json(c.capacity); }},
      {"seed", "--seed",
       "run seed: the key of every random draw, any whole number from 0 to 2^64-1 (default 1)",
       "run seed", ParameterRole::kWorkload, ParameterScope::kEverySim, false, false,
       [](RunConfig& c, const std::string& f, const std::string& t) {
         c.seed = parse_whole(f, t, 0, UINT64_MAX);
       },
       [](const RunConfig& c) { return json(c.seed); }},
  };
}

// The GPU driver's knobs (SchedulerEntry::parameters lists which of the launch knobs a scheduler
// reads).
std::vector<Parameter> scheduler_parameters() {
  return {
      {"block_size", "--block-size",
       "threads per block: a multiple of 32 from 32 to 1024 (default 128)",
       "block size (threads per block)", ParameterRole::kTuning, ParameterScope::kScheduler, false,
       false,
       [](RunConfig& c, const std::string& f, const std::string& t) {
         c.block_size = parse_block_size(f, t);
       },
       [](const RunConfig& c) { return json(c.block_size); }},
      {"blocks_per_sm", "--blocks-per-sm",
       "resident blocks per SM for grids sized from the device: fill or 1..32 (default fill)",
       "blocks per SM", ParameterRole::kTuning, ParameterScope::kScheduler, false, false,
       [](RunConfig& c, const std::string& f, const std::string& t) {
         c.blocks_per_sm = parse_blocks_per_sm(f, t);
       },
       [](const RunConfig& c) {
         return c.blocks_per_sm == 0 ? json("fill") : json(c.blocks_per_sm);
       }},
      {"timeout", "--timeout",
       "GPU schedulers: seconds before the watchdog fails the run (default 600)",
       "watchdog timeout (s)", ParameterRole::kBookkeeping, ParameterScope::kGpuDriver, false,
       false,
       [](RunConfig& c, const std::string& f, const std::string& t) {
         c.timeout_s = parse_real(f, t, 0.1, 86400);
       },
       [](const RunConfig& c) { return json(c.timeout_s); }},
      {"compaction", "--compaction",
       "GPU schedulers: how the dead are removed: simple, block, warp, cub, inplace (default "
       "inplace, one particle array)",
       "compaction variant", ParameterRole::kTuning, ParameterScope::kGpuDriver, false, false,
       [](RunConfig& c, const std::string& f, const std::string& t) {
         c.compaction = parse_choice(f, t, compaction_variants());
       },
       [](const RunConfig& c) { return json(c.compaction); }},
  };
}

// A declared value as results record it: typed by its kind; null where an optional one, or one
// whose default is not recorded, is not given.
json declared_value_json(const DeclaredParameter& d, const RunConfig& c) {
  if (!d.given(c) && (!d.fallback || !d.record_default)) return nullptr;
  switch (d.kind) {
    case ValueKind::kWhole:
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

// Who owns a declared parameter in the run `c`: its sim or its scheduler.
const std::string& owner(const Parameter& p, const RunConfig& c) {
  return p.scope == ParameterScope::kSim ? c.sim : c.scheduler;
}

// The declaration of `p` by the run's sim or scheduler, or null if it declares none.
const DeclaredParameter* own_declaration(const Parameter& p, const RunConfig& c) {
  for (const auto& [name, d] : p.declarations) {
    if (name == owner(p, c)) return d;
  }
  return nullptr;
}

// Checks and stores a value for `p` as the run's owner declares it. An owner that does not
// declare it (a job's axis checked before its points exist, a knob given to a scheduler that
// ignores it) takes the first declaration that accepts the value; with none, the message names
// every value that some declaration of a choice accepts.
void set_declared(const Parameter& p, RunConfig& c, const std::string& where,
                  const std::string& text) {
  // Where owners declare it each their own way, the message names whose values it gives.
  if (const DeclaredParameter* d = own_declaration(p, c)) {
    const bool shared = std::all_of(p.declarations.begin(), p.declarations.end(),
                                    [d](const auto& other) { return other.second == d; });
    return d->set(c, shared ? where : fmt::format("{} ({})", where, owner(p, c)), text);
  }
  std::vector<std::string> choices;
  bool all_choices = true;
  for (const auto& [name, d] : p.declarations) {
    try {
      return d->set(c, where, text);
    } catch (const UsageError&) {
      all_choices = all_choices && d->kind == ValueKind::kChoice;
      for (const std::string& v : d->choices) {
        if (std::find(choices.begin(), choices.end(), v) == choices.end()) choices.push_back(v);
      }
    }
  }
  // Declarations of different kinds: the first one's message (it refused the value above).
  if (!all_choices) p.declarations.front().second->set(c, where, text);
  throw UsageError(fmt::format(
      "{}: '{}' is not accepted by any {} that reads it; accepted: {}", where, printable(text),
      p.scope == ParameterScope::kSim ? "sim" : "scheduler", fmt::join(choices, ", ")));
}

// The row of a key that sims or schedulers declare themselves. Owners that share a parameter
// share its declaration (steps_parameter()); owners may also declare one key each their own way
// (pic's --field is a field model, air's a field strength; each pooled scheduler's --policy names
// its own policies), and the row then checks and reads by the run's owner.
Parameter declared_row(const ByOwner& by_owner, ParameterScope scope, ParameterRole role) {
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
  Parameter row{first.key, first.flag, fmt::format("{}", fmt::join(helps, "; ")), first.label,
                role,      scope,      first.kind == ValueKind::kSwitch,          first.required,
                nullptr,   nullptr};
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
                       ParameterScope scope, ParameterRole role, std::vector<Parameter>& out) {
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
    out.push_back(declared_row(by_key[key], scope, role));
  }
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

const std::vector<Parameter>& parameters() {
  static const std::vector<Parameter> table = [] {
    std::vector<Parameter> out = common_parameters();
    std::vector<std::pair<std::string, DeclaredParameters>> sims, schedulers;
    for (const SimInfo& sim : all_sims())
      sims.emplace_back(sim.name, sim.parameters);
    add_declared_rows(sims, ParameterScope::kSim, ParameterRole::kWorkload, out);
    for (Parameter& p : scheduler_parameters())
      out.push_back(std::move(p));
    for (const SchedulerEntry& e : all_schedulers())
      schedulers.emplace_back(e.name, e.own_parameters());
    add_declared_rows(schedulers, ParameterScope::kScheduler, ParameterRole::kTuning, out);
    return out;
  }();
  return table;
}

const Parameter* find_parameter(const std::string& key) {
  return find_if_key(parameters(), key);
}

bool applies(const Parameter& p, const RunConfig& c) {
  switch (p.scope) {
    case ParameterScope::kEverySim:
      return true;
    case ParameterScope::kSim:
      return reads(find_sim(c.sim), p.key);
    case ParameterScope::kScheduler:
      return contains(find_scheduler(c.scheduler).parameters, p.key) ||
             own_declaration(p, c) != nullptr;
    case ParameterScope::kGpuDriver:
      return find_scheduler(c.scheduler).kind != SchedulerKind::kCpu;
  }
  return false;
}

json config_json(const RunConfig& c) {
  json j{{"sim", c.sim}, {"scheduler", c.scheduler}};
  for (const Parameter& p : parameters()) {
    if (applies(p, c)) j[p.key] = p.get(c);
  }
  return j;
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
    const Parameter* p = find_parameter(key);
    if (p == nullptr) throw UsageError(fmt::format("{}: {}: not a parameter", where, key));
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    p->set(c, where + ": " + key, text);
    given.push_back(key);
  }
  check_config(c, given);
  return c;
}

void check_config(const RunConfig& c, const std::vector<std::string>& given) {
  check_parameters(c, given);
  find_sim(c.sim).check(c);
}

void check_parameters(const RunConfig& c, const std::vector<std::string>& given) {
  const SimInfo& sim = find_sim(c.sim);
  find_scheduler(c.scheduler);
  for (const Parameter& p : parameters()) {
    const bool was_given = contains(given, p.key);
    // A parameter that sims or schedulers declare belongs to them (the GPU driver's knobs, which
    // a command line may give to any scheduler, get a note from `run` instead).
    if (!p.declarations.empty() && was_given && !applies(p, c)) {
      std::vector<std::string> owners;
      for (const auto& [name, d] : p.declarations)
        owners.push_back(name);
      throw UsageError(fmt::format("{}: does not apply to {} {}; it applies to: {}", p.flag,
                                   p.scope == ParameterScope::kSim ? "sim" : "scheduler",
                                   owner(p, c), fmt::join(owners, ", ")));
    }
    const DeclaredParameter* d = own_declaration(p, c);
    const bool required = p.declarations.empty() ? p.required : d != nullptr && d->required;
    if (required && !was_given && applies(p, c)) {
      throw UsageError(fmt::format("{}: required for sim {} ({})", p.flag, sim.name, p.help));
    }
  }
  if (c.init_n > c.capacity) {
    throw UsageError(fmt::format("--capacity: {} is below --init-n {}; accepted: at least {}",
                                 c.capacity, c.init_n, c.init_n));
  }
}

}  // namespace sb
