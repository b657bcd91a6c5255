// Lists of sims, and sim families (docs/design.md §4). A SimList lists sims (sims/registry.hpp)
// and checks each against the sim interface (core/sim_interface.hpp).
//
// A sim family is one sim to its users (one name, description and parameter list in --help,
// `schedbench list` and the catalog) made of compile-time variants, each a full sim, of which a
// run's parameters select one: a model chosen at run time (pic's --field) then costs the other
// variants nothing in their step. A family lists its variants and says which one a run uses:
//   using Variants = SimList<A, B>;            // each a sim (check_sim), none a family
//   static size_t variant(const RunConfig&);   // the run's variant, its index in Variants; it
//                                              // may throw UsageError for a bad combination
// and has the kName, kDescription and parameters() its variants share: every variant has the
// family's name and description (checked here); the family, not its variants, declares the
// parameters they read, so that the list, the variants and the selector stand in one place (the
// family's header). Every scheduler is built for every variant
// (run_fns, schedulers/scheduler.hpp), so each variant is one more set of kernels to compile.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "core/run_config.hpp"
#include "core/sim_interface.hpp"

namespace sb {

template <class... Sims>
struct SimList;

namespace sim_interface {

template <class T>
struct IsSimList : std::false_type {};
template <class... Sims>
struct IsSimList<SimList<Sims...>> : std::true_type {};

template <class Sim, class = void>
struct HasVariants : std::false_type {};
template <class Sim>
struct HasVariants<Sim, std::void_t<typename Sim::Variants>> : std::true_type {};

template <class Family, class = void>
struct HasVariantOf : std::false_type {};
template <class Family>
struct HasVariantOf<Family,
                    std::void_t<decltype(Family::variant(std::declval<const RunConfig&>()))>>
    : std::is_same<decltype(Family::variant(std::declval<const RunConfig&>())), size_t> {};

constexpr bool same_text(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

}  // namespace sim_interface

// Whether Sim is a family of variants rather than one sim.
template <class Sim>
inline constexpr bool kIsFamily = sim_interface::HasVariants<Sim>::value;

template <class List>
struct FirstOf;
template <class First, class... Rest>
struct FirstOf<SimList<First, Rest...>> {
  using type = First;
};

// True, or a compile error naming what a family's Variant lacks: it must be a sim with the
// family's name and description, and draw pictures and frames as the family's first variant does
// (the catalog says either for the whole family).
template <class Family, class Variant>
constexpr bool check_variant() {
  namespace si = sim_interface;
  static_assert(!kIsFamily<Variant>, "a sim family's variants must be sims, not families");
  if constexpr (!kIsFamily<Variant>) {
    static_assert(check_sim<Variant>());
    using First = typename FirstOf<typename Family::Variants>::type;
    if constexpr (si::HasNames<Variant>::value) {
      static_assert(si::same_text(Variant::kName, Family::kName) &&
                        si::same_text(Variant::kDescription, Family::kDescription),
                    "a sim family's variants must have the family's kName and kDescription "
                    "(users see one sim)");
    }
    static_assert(
        kHasPicture<Variant> == kHasPicture<First> && kDrawsFrames<Variant> == kDrawsFrames<First>,
        "a sim family's variants must all draw pictures (picture()) and frames "
        "(frame_every()), or none");
  }
  return true;
}

template <class Family, class List>
struct VariantsChecked : std::true_type {};  // a Variants that is no SimList is reported below
template <class Family, class... Variants>
struct VariantsChecked<Family, SimList<Variants...>>
    : std::bool_constant<(check_variant<Family, Variants>() && ...)> {
  static_assert(sizeof...(Variants) > 0, "a sim family must list at least one variant");
};

// True, or a compile error naming the first member the family lacks.
template <class Family>
constexpr bool check_family() {
  namespace si = sim_interface;
  constexpr bool listed = si::IsSimList<typename Family::Variants>::value;
  static_assert(listed, "a sim family's `Variants` must be a `SimList<...>` of its variants");
  static_assert(si::HasNames<Family>::value,
                "a sim family must define `static constexpr const char* kName` and "
                "`kDescription`, its variants'");
  static_assert(si::HasParameterList<Family>::value,
                "a sim family must define `static DeclaredParameters parameters()`, the parameters "
                "its variants read");
  static_assert(si::HasVariantOf<Family>::value,
                "a sim family must define `static size_t variant(const RunConfig&)`: the index "
                "in Variants of the variant a run uses");
  if constexpr (listed && si::HasNames<Family>::value) {
    return VariantsChecked<Family, typename Family::Variants>::value;
  }
  return true;
}

// A sim or a family, as a SimList takes either.
template <class Sim>
constexpr bool check_listed() {
  if constexpr (kIsFamily<Sim>) {
    return check_family<Sim>();
  } else {
    return check_sim<Sim>();
  }
}

// Listing a sim checks it against the sim interface (core/sim_interface.hpp).
template <class... Sims>
struct SimList {
  static_assert((check_listed<Sims>() && ...));

  static constexpr size_t kSize = sizeof...(Sims);

  template <class F>
  static void for_each(F&& f) {
    (f(static_cast<Sims*>(nullptr)), ...);
  }

  // Sim's place in the list (a family's variant() returns one).
  template <class Sim>
  static constexpr size_t index_of() {
    static_assert((std::is_same_v<Sim, Sims> || ...), "index_of: not in this SimList");
    constexpr bool match[] = {std::is_same_v<Sim, Sims>...};
    size_t i = 0;
    while (!match[i])
      ++i;
    return i;
  }

  // f(static_cast<S*>(nullptr)) for the list's entry S at index i.
  template <class F>
  static decltype(auto) at(size_t i, F&& f) {
    if (i >= kSize) {
      throw std::logic_error("variant " + std::to_string(i) + " of a SimList of " +
                             std::to_string(kSize));
    }
    return at_or_after<Sims...>(i, f);
  }

 private:
  template <class S, class... Rest, class F>
  static decltype(auto) at_or_after(size_t i, F& f) {
    if constexpr (sizeof...(Rest) == 0) {
      return f(static_cast<S*>(nullptr));
    } else {
      if (i == 0) return f(static_cast<S*>(nullptr));
      return at_or_after<Rest...>(i - 1, f);
    }
  }
};

// f(static_cast<V*>(nullptr)) for the variant V of Sim that configuration c selects: Sim itself
// unless it is a family.
template <class Sim, class F>
decltype(auto) with_variant(const RunConfig& c, F&& f) {
  if constexpr (kIsFamily<Sim>) {
    return Sim::Variants::at(Sim::variant(c), f);
  } else {
    return f(static_cast<Sim*>(nullptr));
  }
}

// The variants of a sim or family: a sim is its own only one.
template <class Sim, class = void>
struct VariantsOf {
  using type = SimList<Sim>;
};
template <class Sim>
struct VariantsOf<Sim, std::enable_if_t<kIsFamily<Sim>>> {
  using type = typename Sim::Variants;
};

}  // namespace sb
