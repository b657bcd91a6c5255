#include "sims/catalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "sims/catalog_entry.hpp"
#include "sims/registry.hpp"

namespace sb {
namespace {

std::vector<SimInfo>& added_sims() {
  static std::vector<SimInfo> added;
  return added;
}

}  // namespace

void add_sims(std::vector<SimInfo> more) {
  for (SimInfo& s : more)
    added_sims().push_back(std::move(s));
}

const std::vector<SimInfo>& all_sims() {
  static const std::vector<SimInfo> sims = [] {
    std::vector<SimInfo> out = sim_infos<AllSims>();
    for (const SimInfo& s : added_sims()) {
      // A project's sim beside a shipped one of the same name would make every lookup ambiguous.
      const bool taken = std::any_of(out.begin(), out.end(),
                                     [&](const SimInfo& o) { return o.name == s.name; });
      if (taken) {
        throw std::logic_error(fmt::format(
            "sim '{}' is defined twice: a project's sim needs a name of its own", s.name));
      }
      out.push_back(s);
    }
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
