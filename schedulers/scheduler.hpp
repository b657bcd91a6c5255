// What the registry knows of a scheduler: its name, what it is, which of the run machinery's knobs
// it reads, one run function per sim, its tuning policies, and the parameters it declares itself.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"
#include "core/run_result.hpp"
#include "schedulers/policy.hpp"
#include "sims/registry.hpp"
#ifdef SB_EXAMPLE_SIMS
#include "examples/walk_sim.hpp"
#endif

namespace sb {

enum class SchedulerKind {
  kCpu,        // runs on the host
  kGpu,        // runs on a CUDA device
  kYardstick,  // not a simulation: a bound to compare schedulers against
};

using RunFn = std::function<RunResult(const RunConfig&, const RunOptions&)>;

// The sims every scheduler is built for: AllSims (sims/registry.hpp). The tests build the
// schedulers a second time, with SB_EXAMPLE_SIMS, for the tutorials' example sims instead
// (docs/design.md §9; tests/CMakeLists.txt), so that users' binaries hold no code for them.
#ifdef SB_EXAMPLE_SIMS
using BuiltSims = SimList<WalkSim>;
#else
using BuiltSims = AllSims;
#endif

struct SchedulerEntry {
  std::string name;
  std::string description;
  SchedulerKind kind;
  std::vector<std::string> parameters;  // the launch knobs of RunConfig it reads (block_size, ...)
  std::map<std::string, RunFn> by_sim;  // sim name -> run function, one per BuiltSims entry
  SchedulerPolicies policies = {};      // its tuning policies (--policy), if it has any
  DeclaredParameters declared = {};     // its own parameters (static-full's --warp-sync)

  // The parameters it declares: its own and, if it has policies, --policy.
  DeclaredParameters own_parameters() const {
    DeclaredParameters out = declared;
    if (!policies.empty()) out.push_back(&policies.parameter);
    return out;
  }
};

// Sim's run function, `make(static_cast<Sim*>(nullptr))`; a family's runs the variant that the
// configuration selects (core/sim_list.hpp), each variant's made by `make` once.
template <class Sim, class Make>
RunFn run_fn(Make& make) {
  if constexpr (kIsFamily<Sim>) {
    std::vector<RunFn> by_variant;
    Sim::Variants::for_each([&](auto* variant) { by_variant.push_back(make(variant)); });
    return [by_variant](const RunConfig& c, const RunOptions& opt) {
      return by_variant.at(Sim::variant(c))(c, opt);
    };
  } else {
    return make(static_cast<Sim*>(nullptr));
  }
}

// One run function per sim of `Sims`: `make(static_cast<Sim*>(nullptr))` gives Sim's, and each
// variant's of a family. `Sims` is part of the instantiation's name, so that the two builds of the
// schedulers (BuiltSims) link into one program.
template <class Sims = BuiltSims, class Make>
std::map<std::string, RunFn> run_fns(Make make) {
  std::map<std::string, RunFn> out;
  const auto add = [&](auto* sim) {
    using Sim = std::remove_pointer_t<decltype(sim)>;
    out[Sim::kName] = run_fn<Sim>(make);
  };
  Sims::for_each(add);
  return out;
}

}  // namespace sb
