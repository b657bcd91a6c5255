// What the registry knows of a scheduler: its name, what it is, which of the GPU driver's launch
// knobs it reads, how it runs each sim, its tuning policies, and the parameters it declares itself.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/declared_parameter.hpp"
#include "core/run_config.hpp"
#include "core/run_result.hpp"
#include "core/sim_state.hpp"
#include "schedulers/device/launch_parameters.hpp"
#include "schedulers/policy.hpp"
#include "sims/registry.hpp"
#if defined(SB_SIMS_HEADER)
#include SB_SIMS_HEADER
#elif defined(SB_EXAMPLE_SIMS)
#include "examples/walk_sim.hpp"
#endif

namespace sb {

enum class SchedulerKind {
  kCpu,        // runs on the host
  kGpu,        // runs on a CUDA device
  kYardstick,  // not a simulation: a bound to compare schedulers against
};

struct RunSpec;  // schedulers/run_spec.hpp

using RunFn = std::function<RunResult(const RunSpec&, const RunOptions&)>;

// A sim's setup for one run (core/sim_state.hpp) with its type erased, and the phases it plans.
struct PreparedSetup {
  std::shared_ptr<const void> setup;  // SimSetup of the sim, or of the variant the run selects
  PhasePlan plan;
};

// How a scheduler runs one sim: the setup that a configuration builds (checking it), and the run
// of a resolved configuration.
struct SimRunner {
  std::function<PreparedSetup(const RunConfig&)> prepare;
  RunFn run;
};

// The sims every scheduler is built for: AllSims (sims/registry.hpp). The tests build the
// schedulers a second time, with SB_EXAMPLE_SIMS, for the tutorials' example sims instead
// (docs/design.md §9; tests/CMakeLists.txt), so that users' binaries hold no code for them. A
// project that uses the installed package builds them for its own sims, the SimList
// sb::ProjectSims that the header SB_SIMS_HEADER names (cmake/schedbenchSchedulers.cmake).
#if defined(SB_SIMS_HEADER)
using BuiltSims = ProjectSims;
#elif defined(SB_EXAMPLE_SIMS)
using BuiltSims = SimList<WalkSim>;
#else
using BuiltSims = AllSims;
#endif

struct SchedulerEntry {
  std::string name;
  std::string description;
  SchedulerKind kind;
  DeclaredParameters launch;  // the GPU driver's knobs it reads (launch_parameters.hpp)
  std::map<std::string, SimRunner> by_sim;  // sim name -> its runner, one per BuiltSims entry
  SchedulerPolicies policies = {};          // its tuning policies (--policy), if it has any
  DeclaredParameters declared = {};         // its own parameters (static-full's --warp-sync)

  // The parameters it declares: its own and, if it has policies, --policy.
  DeclaredParameters own_parameters() const {
    DeclaredParameters out = declared;
    if (!policies.empty()) out.push_back(&policies.parameter);
    return out;
  }
};

// The setup of a run of Sim, built once: a family's variant's, the one the configuration selects.
// A streamed run (--batch, docs/design.md §11) of a variant whose grid work between phases needs
// every particle on the device at once is refused here, where every run and every job's point is
// checked.
template <class Sim>
PreparedSetup prepare_setup(const RunConfig& c) {
  return with_variant<Sim>(c, [&c](auto* variant) {
    using Variant = std::remove_pointer_t<decltype(variant)>;
    launch_knobs::check_batch(c, kStreams<Variant>);
    std::shared_ptr<const SimSetup<Variant>> setup = make_setup<Variant>(c);
    const PhasePlan plan = setup->phases();
    return PreparedSetup{std::move(setup), plan};
  });
}

// Sim's runner: its run function `make(static_cast<Sim*>(nullptr))`; a family's runs the variant
// that the configuration selects (core/sim_list.hpp), each variant's made by `make` once.
template <class Sim, class Make>
SimRunner sim_runner(Make& make) {
  if constexpr (kIsFamily<Sim>) {
    std::vector<RunFn> by_variant;
    Sim::Variants::for_each([&](auto* variant) { by_variant.push_back(make(variant)); });
    return {&prepare_setup<Sim>, [by_variant](const auto& spec, const RunOptions& opt) {
              return by_variant.at(Sim::variant(spec.config))(spec, opt);
            }};
  } else {
    return {&prepare_setup<Sim>, make(static_cast<Sim*>(nullptr))};
  }
}

// One runner per sim of `Sims`: `make(static_cast<Sim*>(nullptr))` gives Sim's run function, and
// each variant's of a family. `Sims` is part of the instantiation's name, so that the two builds
// of the schedulers (BuiltSims) link into one program.
template <class Sims = BuiltSims, class Make>
std::map<std::string, SimRunner> run_fns(Make make) {
  std::map<std::string, SimRunner> out;
  const auto add = [&](auto* sim) {
    using Sim = std::remove_pointer_t<decltype(sim)>;
    out[Sim::kName] = sim_runner<Sim>(make);
  };
  Sims::for_each(add);
  return out;
}

}  // namespace sb
