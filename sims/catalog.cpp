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

template <class Sim>
const DeclaredParameter* frame_parameter() {
  if constexpr (kDrawsFrames<Sim>) {
    return &Sim::frame_every();
  } else {
    return nullptr;
  }
}

}  // namespace

namespace {

// The checks of the run's variant of Sim: its setup's (sims without variants are their own).
template <class Sim>
void check(const RunConfig& c) {
  with_variant<Sim>(
      c, [&c](auto* variant) { make_setup<std::remove_pointer_t<decltype(variant)>>(c); });
}

}  // namespace

const std::vector<SimInfo>& all_sims() {
  static const std::vector<SimInfo> sims = [] {
    std::vector<SimInfo> out;
    AllSims::for_each([&out](auto* sim) {
      using Sim = std::remove_pointer_t<decltype(sim)>;
      static_assert(sim_interface::HasParameterList<Sim>::value,
                    "a sim must define `static DeclaredParameters parameters()` (the declarations "
                    "of the parameters it reads, core/declared_parameter.hpp; a family's, those "
                    "its variants read)");
      // A family's variants all draw pictures and frames, or none, and share their table's form
      // (core/sim_list.hpp).
      using First = typename FirstOf<typename VariantsOf<Sim>::type>::type;
      out.push_back({Sim::kName, Sim::kDescription, Sim::parameters(), check<Sim>,
                     kHasPicture<First>, frame_parameter<First>(), table_writer<First>(),
                     kWorkObservable<First>});
    });
    return out;
  }();
  return sims;
}

bool reads(const SimInfo& sim, const std::string& key) {
  return std::any_of(sim.parameters.begin(), sim.parameters.end(),
                     [&](const DeclaredParameter* p) { return p->key == key; });
}

const SimInfo* listed_sim(const std::string& name) {
  for (const SimInfo& s : all_sims()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const SimInfo& find_sim(const std::string& name) {
  if (const SimInfo* s = listed_sim(name)) return *s;
  std::vector<std::string> names;
  for (const SimInfo& s : all_sims())
    names.push_back(s.name);
  throw UsageError(fmt::format("--sim: '{}' is not a sim; accepted: {}", printable(name),
                               fmt::join(names, ", ")));
}

}  // namespace sb
