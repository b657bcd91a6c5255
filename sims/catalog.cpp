#include "sims/catalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/sim_state.hpp"
#include "sims/registry.hpp"

namespace sb {
namespace {

template <class Sim>
SimTable (*table_writer())(const RunConfig&) {
  if constexpr (kWritesTable<Sim>) {
    return &Sim::table;
  } else {
    return nullptr;
  }
}

}  // namespace

const std::vector<SimInfo>& all_sims() {
  static const std::vector<SimInfo> sims = [] {
    std::vector<SimInfo> out;
    AllSims::for_each([&out](auto* sim) {
      using Sim = std::remove_pointer_t<decltype(sim)>;
      out.push_back({Sim::kName, Sim::kDescription, Sim::parameters(),
                     [](const RunConfig& c) { HostState<Sim> state(c); }, kHasPicture<Sim>,
                     kDrawsFrames<Sim>, [](const RunConfig& c) { return Sim::phases(c).count; },
                     table_writer<Sim>()});
    });
    return out;
  }();
  return sims;
}

bool reads(const SimInfo& sim, const std::string& key) {
  return std::any_of(sim.parameters.begin(), sim.parameters.end(),
                     [&](const DeclaredParameter* p) { return p->key == key; });
}

const SimInfo& find_sim(const std::string& name) {
  std::vector<std::string> names;
  for (const SimInfo& s : all_sims()) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  throw UsageError(fmt::format("--sim: '{}' is not a sim; accepted: {}", printable(name),
                               fmt::join(names, ", ")));
}

}  // namespace sb
