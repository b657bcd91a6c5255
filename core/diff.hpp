// Names the first particles that differ between two runs: the tool to reach for when two
// engines' digests disagree.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/digest.hpp"

namespace sb {

using FieldList = std::vector<std::pair<std::string, std::string>>;

template <class Particle>
FieldList fields_of(const Particle& p) {
  FieldList out;
  p.visit(
      [&out](const char* name, auto value) { out.emplace_back(name, fmt::format("{}", value)); });
  return out;
}

template <class Particle>
std::string describe(const Particle& p) {
  std::string s = fmt::format("id {:#018x}", p.tag.id());
  for (const auto& [name, value] : fields_of(p))
    s += fmt::format(" {}={}", name, value);
  return s;
}

// Up to `max_reports` lines, in id order, one for each particle that is only in `a`, only in
// `b`, or in both with different fields. Empty when the multisets are equal.
template <class Particle>
std::vector<std::string> first_differences(std::vector<Particle> a, std::vector<Particle> b,
                                           size_t max_reports, const std::string& name_a = "A",
                                           const std::string& name_b = "B") {
  const auto by_id = [](const Particle& l, const Particle& r) {
    const auto kl = std::make_pair(l.tag.id(), particle_hash(l));
    const auto kr = std::make_pair(r.tag.id(), particle_hash(r));
    return kl < kr;
  };
  std::sort(a.begin(), a.end(), by_id);
  std::sort(b.begin(), b.end(), by_id);

  std::vector<std::string> out;
  size_t i = 0, j = 0;
  while ((i < a.size() || j < b.size()) && out.size() < max_reports) {
    if (j == b.size() || (i < a.size() && a[i].tag.id() < b[j].tag.id())) {
      out.push_back(fmt::format("only in {}: {}", name_a, describe(a[i++])));
    } else if (i == a.size() || b[j].tag.id() < a[i].tag.id()) {
      out.push_back(fmt::format("only in {}: {}", name_b, describe(b[j++])));
    } else {
      if (particle_hash(a[i]) != particle_hash(b[j])) {
        const FieldList fa = fields_of(a[i]), fb = fields_of(b[j]);
        std::string what;
        for (size_t k = 0; k < fa.size(); ++k) {
          if (fa[k].second != fb[k].second) {
            what += fmt::format(" {} {}={} {}={}", fa[k].first, name_a, fa[k].second, name_b,
                                fb[k].second);
          }
        }
        out.push_back(fmt::format("id {:#018x} differs:{}", a[i].tag.id(), what));
      }
      ++i;
      ++j;
    }
  }
  return out;
}

}  // namespace sb
