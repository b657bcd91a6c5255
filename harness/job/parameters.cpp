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

// A policy name that some scheduler has; whether the run's scheduler has it is check_parameters'.
std::string parse_policy(const std::string& flag, const std::string& text) {
  std::vector<std::string> names;
  for (const SchedulerEntry& e : all_schedulers()) {
    for (const std::string& name : e.policies.names()) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  if (std::find(names.begin(), names.end(), text) == names.end()) {
    throw UsageError(fmt::format("{}: '{}' is not a policy of any scheduler; accepted: {}", flag,
                                 printable(text), fmt::join(names, ", ")));
  }
  return text;
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

// The run machinery's knobs (SchedulerEntry::parameters lists which a scheduler reads).
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
      {"warp_sync", "--warp-sync", "static-full: synchronise each warp after every particle",
       "warp sync", ParameterRole::kTuning, ParameterScope::kScheduler, true, false,
       [](RunConfig& c, const std::string& f, const std::string& t) {
         c.warp_sync = parse_bool(f, t);
       },
       [](const RunConfig& c) { return json(c.warp_sync); }},
      {"policy", "--policy",
       "dynamic-warp, dynamic-block, cpu-sync: tuning policy, default (the one measured for the "
       "device's architecture) or a name that `schedbench list` shows with its constants",
       "tuning policy", ParameterRole::kTuning, ParameterScope::kScheduler, false, false,
       [](RunConfig& c, const std::string& f, const std::string& t) {
         c.policy = parse_policy(f, t);
       },
       [](const RunConfig& c) { return json(c.policy); }},
  };
}

// A sim's value as results record it: typed by its kind; null where an optional one is not given.
json sim_value_json(const SimParameter& d, const RunConfig& c) {
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

// The declaration of `key` by the run's sim, or by the first sim that declares it (so that a
// value given to a sim that does not read it is still checked before check_parameters says so).
const SimParameter& declaration(const Parameter& p, const RunConfig& c) {
  for (const auto& [sim, d] : p.declarations) {
    if (sim == c.sim) return *d;
  }
  return *p.declarations.front().second;
}

// The row of a sim parameter key. Sims that share a parameter share its declaration
// (steps_parameter()); sims may also declare one key each their own way (pic's --field is a field
// model, air's a field strength), and the row then reads and checks by the run's sim.
Parameter sim_parameter(const std::vector<std::pair<std::string, const SimParameter*>>& by_sim) {
  const SimParameter& first = *by_sim.front().second;
  std::vector<std::string> helps;
  for (const auto& [sim, d] : by_sim) {
    if (d->flag != first.flag ||
        (d->kind == ValueKind::kSwitch) != (first.kind == ValueKind::kSwitch)) {
      throw std::logic_error(
          fmt::format("{}: sims declare it with different flags or kinds", d->key));
    }
    if (std::find(helps.begin(), helps.end(), d->help) == helps.end()) helps.push_back(d->help);
  }
  Parameter row{first.key,
                first.flag,
                fmt::format("{}", fmt::join(helps, "; ")),
                first.label,
                ParameterRole::kWorkload,
                ParameterScope::kSim,
                first.kind == ValueKind::kSwitch,
                first.required,
                nullptr,
                nullptr};
  row.declarations = by_sim;
  row.set = [row_key = first.key](RunConfig& c, const std::string& f, const std::string& t) {
    declaration(*find_parameter(row_key), c).set(c, f, t);
  };
  row.get = [row_key = first.key](const RunConfig& c) {
    return sim_value_json(declaration(*find_parameter(row_key), c), c);
  };
  return row;
}

const Parameter* find_if_key(const std::vector<Parameter>& rows, const std::string& key) {
  for (const Parameter& p : rows) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

const std::vector<Parameter>& parameters() {
  static const std::vector<Parameter> table = [] {
    std::vector<Parameter> out = common_parameters();
    std::vector<std::string> keys;  // in the order the sims declare them
    std::map<std::string, std::vector<std::pair<std::string, const SimParameter*>>> by_key;
    for (const SimInfo& sim : all_sims()) {
      for (const SimParameter* d : sim.parameters) {
        if (by_key.count(d->key) == 0) keys.push_back(d->key);
        by_key[d->key].emplace_back(sim.name, d);
      }
    }
    for (const std::string& key : keys)
      out.push_back(sim_parameter(by_key[key]));
    for (Parameter& p : scheduler_parameters())
      out.push_back(std::move(p));
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
      return contains(find_scheduler(c.scheduler).parameters, p.key);
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
    if (p.scope == ParameterScope::kSim && was_given && !applies(p, c)) {
      std::vector<std::string> users;
      for (const SimInfo& s : all_sims()) {
        if (reads(s, p.key)) users.push_back(s.name);
      }
      throw UsageError(fmt::format("{}: does not apply to sim {}; it applies to: {}", p.flag,
                                   sim.name, fmt::join(users, ", ")));
    }
    const bool required = p.scope == ParameterScope::kSim ? declaration(p, c).required : p.required;
    if (required && !was_given && applies(p, c)) {
      throw UsageError(fmt::format("{}: required for sim {} ({})", p.flag, sim.name, p.help));
    }
  }
  if (contains(given, "policy")) find_scheduler(c.scheduler).policies.check(c.scheduler, c.policy);
  if (c.init_n > c.capacity) {
    throw UsageError(fmt::format("--capacity: {} is below --init-n {}; accepted: at least {}",
                                 c.capacity, c.init_n, c.init_n));
  }
}

}  // namespace sb
