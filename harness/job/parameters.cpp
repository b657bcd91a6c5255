#include "harness/job/parameters.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "harness/job/values.hpp"
#include "schedulers/registry.hpp"

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

// A cross-section file's name, or "synthetic" for the seed's table (stored as "").
std::string parse_cross_section(const std::string& flag, const std::string& text) {
  if (text.empty()) {
    throw UsageError(fmt::format("{}: empty; accepted: a file name or 'synthetic'", flag));
  }
  return text == "synthetic" ? "" : text;
}

const std::vector<Parameter> kParameters = {
    {"init_n", "--init-n", "initial number of particles", ParameterScope::kEverySim, false, true,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.init_n = parse_whole(f, t, 1, kMaxCount);
     },
     [](const RunConfig& c) { return json(c.init_n); }},
    {"capacity", "--capacity", "most particle slots the run may use (default 1e8)",
     ParameterScope::kEverySim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.capacity = parse_whole(f, t, 1, kMaxCount);
     },
     [](const RunConfig& c) { return json(c.capacity); }},
    {"seed", "--seed", "run seed: the key of every random draw (default 1)",
     ParameterScope::kEverySim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.seed = parse_whole(f, t, 0, 9007199254740992ull);
     },
     [](const RunConfig& c) { return json(c.seed); }},
    {"steps", "--steps", "time steps", ParameterScope::kSim, false, true,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.steps = static_cast<uint32_t>(parse_whole(f, t, 1, kMaxCount));
     },
     [](const RunConfig& c) { return json(c.steps); }},
    {"layout", "--layout", "toy initial layout: center or column (default center)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.layout = parse_choice(f, t, {"center", "column"});
     },
     [](const RunConfig& c) { return json(c.layout); }},
    {"split_chance", "--split-chance", "mvp: chance to split per step, percent (default 0.02)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.split_chance = parse_real(f, t, 0, 100);
     },
     [](const RunConfig& c) { return json(c.split_chance); }},
    {"skip_spawned", "--skip-spawned", "mvp: store spawned particles but do not simulate them",
     ParameterScope::kSim, true, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.skip_spawned = parse_bool(f, t);
     },
     [](const RunConfig& c) { return json(c.skip_spawned); }},
    {"poisson_steps", "--poisson-steps", "pic: poisson steps (phases of grid work)",
     ParameterScope::kSim, false, true,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.poisson_steps = static_cast<uint32_t>(parse_whole(f, t, 1, 100000));
     },
     [](const RunConfig& c) { return json(c.poisson_steps); }},
    {"mobility_steps", "--mobility-steps", "pic: mobility steps per poisson step",
     ParameterScope::kSim, false, true,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.mobility_steps = static_cast<uint32_t>(parse_whole(f, t, 1, 100000));
     },
     [](const RunConfig& c) { return json(c.mobility_steps); }},
    {"cross_section", "--cross-section",
     "pic: file of split and remove percent per energy level, or 'synthetic' (default): the "
     "seed's synthetic table",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.cross_section = parse_cross_section(f, t);
     },
     [](const RunConfig& c) {
       return c.cross_section.empty() ? json("synthetic") : json(c.cross_section);
     }},
    {"collision_chance", "--collision-chance",
     "pic: constant collision chance, percent, split = remove = half of it (instead of a table)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.collision_chance = parse_real(f, t, 0, 100);
     },
     [](const RunConfig& c) {
       return c.collision_chance < 0 ? json(nullptr) : json(c.collision_chance);
     }},
    {"gas", "--gas",
     "air: gas mixture SPECIES:FRACTION,... of species in the cross-section file, fractions "
     "summing to 1 (default N2:0.8,O2:0.2)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string&, const std::string& t) { c.gas = t; },
     [](const RunConfig& c) { return json(c.gas); }},
    {"pressure", "--pressure", "air: gas pressure, bar (default 1)", ParameterScope::kSim, false,
     false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.pressure = parse_real(f, t, 1e-9, 1e6);
     },
     [](const RunConfig& c) { return json(c.pressure); }},
    {"temperature", "--temperature", "air: gas temperature, K (default 300)", ParameterScope::kSim,
     false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.temperature = parse_real(f, t, 1e-3, 1e6);
     },
     [](const RunConfig& c) { return json(c.temperature); }},
    {"field", "--field", "air: electric field, V/m (or --reduced-field)", ParameterScope::kSim,
     false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.field = parse_real(f, t, 0, 1e12);
     },
     [](const RunConfig& c) { return c.field < 0 ? json(nullptr) : json(c.field); }},
    {"reduced_field", "--reduced-field",
     "air: reduced electric field E/N, Td (1 Td = 1e-21 V m^2; or --field)", ParameterScope::kSim,
     false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.reduced_field = parse_real(f, t, 0, 1e6);
     },
     [](const RunConfig& c) {
       return c.reduced_field < 0 ? json(nullptr) : json(c.reduced_field);
     }},
    {"magnetic_field", "--magnetic-field", "air: magnetic field, T (default 0)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.magnetic_field = parse_real(f, t, 0, 1e4);
     },
     [](const RunConfig& c) { return json(c.magnetic_field); }},
    {"field_angle", "--field-angle", "air: angle between E and B, degrees (default 0)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.field_angle = parse_real(f, t, 0, 180);
     },
     [](const RunConfig& c) { return json(c.field_angle); }},
    {"thermal_gas", "--thermal-gas",
     "air: molecules move with the Maxwellian of --temperature (default: at rest)",
     ParameterScope::kSim, true, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.thermal_gas = parse_bool(f, t);
     },
     [](const RunConfig& c) { return json(c.thermal_gas); }},
    {"cross_sections", "--cross-sections",
     "air: LXCat cross-section file (default data/lxcat-siglo.txt: N2, O2, Ar)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string&, const std::string& t) { c.cross_sections = t; },
     [](const RunConfig& c) {
       return c.cross_sections.empty() ? json(nullptr) : json(c.cross_sections);
     }},
    {"phases", "--phases", "air: phases (default 10), each of --phase-time", ParameterScope::kSim,
     false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.phases = static_cast<uint32_t>(parse_whole(f, t, 1, 100000));
     },
     [](const RunConfig& c) { return json(c.phases); }},
    {"phase_time", "--phase-time", "air: length of a phase, seconds (default 1e-10)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.phase_time = parse_real(f, t, 1e-18, 1);
     },
     [](const RunConfig& c) { return json(c.phase_time); }},
    {"extrapolate", "--extrapolate",
     "air: above the table's top energy: error (default; the run fails), constant (the top's "
     "collision frequencies) or zero (no collisions)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.extrapolate = parse_choice(f, t, {"error", "constant", "zero"});
     },
     [](const RunConfig& c) { return json(c.extrapolate); }},
    {"max_energy", "--max-energy",
     "air: top of the collision table, eV (default: the smallest top of the gases' elastic "
     "cross sections)",
     ParameterScope::kSim, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.max_energy = parse_real(f, t, 1e-3, 1e7);
     },
     [](const RunConfig& c) { return c.max_energy > 0 ? json(c.max_energy) : json(nullptr); }},
    {"block_size", "--block-size",
     "threads per block: a multiple of 32 from 32 to 1024 (default 128)",
     ParameterScope::kScheduler, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.block_size = parse_block_size(f, t);
     },
     [](const RunConfig& c) { return json(c.block_size); }},
    {"blocks_per_sm", "--blocks-per-sm",
     "resident blocks per SM for grids sized from the device: fill or 1..32 (default fill)",
     ParameterScope::kScheduler, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.blocks_per_sm = parse_blocks_per_sm(f, t);
     },
     [](const RunConfig& c) {
       return c.blocks_per_sm == 0 ? json("fill") : json(c.blocks_per_sm);
     }},
    {"timeout", "--timeout",
     "GPU schedulers: seconds before the watchdog fails the run (default 600)",
     ParameterScope::kGpuDriver, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.timeout_s = parse_real(f, t, 0.1, 86400);
     },
     [](const RunConfig& c) { return json(c.timeout_s); }},
    {"compaction", "--compaction",
     "GPU schedulers: how the dead are removed: simple, block, warp, cub, inplace (default "
     "inplace, one particle array)",
     ParameterScope::kGpuDriver, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.compaction = parse_choice(f, t, compaction_variants());
     },
     [](const RunConfig& c) { return json(c.compaction); }},
    {"warp_sync", "--warp-sync", "static-full: synchronise each warp after every particle",
     ParameterScope::kScheduler, true, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.warp_sync = parse_bool(f, t);
     },
     [](const RunConfig& c) { return json(c.warp_sync); }},
    {"policy", "--policy",
     "dynamic-warp, dynamic-block, cpu-sync: tuning policy, default (the one measured for the "
     "device's architecture) or a name that `schedbench list` shows with its constants",
     ParameterScope::kScheduler, false, false,
     [](RunConfig& c, const std::string& f, const std::string& t) {
       c.policy = parse_policy(f, t);
     },
     [](const RunConfig& c) { return json(c.policy); }},
};

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

const std::vector<Parameter>& parameters() {
  return kParameters;
}

const Parameter* find_parameter(const std::string& key) {
  for (const Parameter& p : kParameters) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

bool applies(const Parameter& p, const RunConfig& c) {
  switch (p.scope) {
    case ParameterScope::kEverySim:
      return true;
    case ParameterScope::kSim:
      return contains(find_sim(c.sim).parameters, p.key);
    case ParameterScope::kScheduler:
      return contains(find_scheduler(c.scheduler).parameters, p.key);
    case ParameterScope::kGpuDriver:
      return find_scheduler(c.scheduler).kind != SchedulerKind::kCpu;
  }
  return false;
}

json config_json(const RunConfig& c) {
  json j{{"sim", c.sim}, {"scheduler", c.scheduler}};
  for (const Parameter& p : kParameters) {
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
  for (const Parameter& p : kParameters) {
    const bool was_given = contains(given, p.key);
    if (p.scope == ParameterScope::kSim && was_given && !applies(p, c)) {
      std::vector<std::string> users;
      for (const SimInfo& s : all_sims()) {
        if (contains(s.parameters, p.key)) users.push_back(s.name);
      }
      throw UsageError(fmt::format("{}: does not apply to sim {}; it applies to: {}", p.flag,
                                   sim.name, fmt::join(users, ", ")));
    }
    if (p.required && !was_given && applies(p, c)) {
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
