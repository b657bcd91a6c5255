// The catalog's entry of a sim type (sims/catalog.hpp), made where the sim is compiled: by the
// catalog for the shipped sims, and by a project's build for its own (cmake/project_runs.cpp).
#pragma once

#include <type_traits>
#include <vector>

#include "core/sim_list.hpp"
#include "core/sim_state.hpp"
#include "sims/catalog.hpp"

namespace sb {
namespace catalog_detail {

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

// The checks of the run's variant of Sim: its setup's (sims without variants are their own).
template <class Sim>
void check(const RunConfig& c) {
  with_variant<Sim>(
      c, [&c](auto* variant) { make_setup<std::remove_pointer_t<decltype(variant)>>(c); });
}

template <class Sim>
bool streams(const RunConfig& c) {
  return with_variant<Sim>(
      c, [](auto* variant) { return kStreams<std::remove_pointer_t<decltype(variant)>>; });
}

}  // namespace catalog_detail

// The entries of the sims (or families) of the SimList `Sims`, in its order.
template <class Sims>
std::vector<SimInfo> sim_infos() {
  std::vector<SimInfo> out;
  Sims::for_each([&out](auto* sim) {
    using Sim = std::remove_pointer_t<decltype(sim)>;
    static_assert(sim_interface::HasParameterList<Sim>::value,
                  "a sim must define `static DeclaredParameters parameters()` (the declarations "
                  "of the parameters it reads, core/declared_parameter.hpp; a family's, those "
                  "its variants read)");
    // A family's variants all draw pictures and frames, or none, and share their table's form
    // (core/sim_list.hpp).
    using First = typename FirstOf<typename VariantsOf<Sim>::type>::type;
    out.push_back({Sim::kName, Sim::kDescription, Sim::parameters(), catalog_detail::check<Sim>,
                   catalog_detail::streams<Sim>,
                   kHasPicture<First>, catalog_detail::frame_parameter<First>(),
                   catalog_detail::table_writer<First>(), kWorkObservable<First>});
  });
  return out;
}

}  // namespace sb
