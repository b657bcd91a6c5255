#include "sims/air/collision_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/decimal.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/values.hpp"
#include "sims/air/constants.hpp"

namespace sb::air {
namespace {

// The cross section of p at eps (see build_table for the rules outside its points).
double cross_section_at(const Process& p, double eps) {
  const std::vector<double>& e = p.energy;
  const bool elastic = p.kind == ProcessKind::kElastic || p.kind == ProcessKind::kEffective;
  if (eps < e.front()) return elastic ? p.cross_section.front() : 0.0;
  if (eps >= e.back()) return p.cross_section.back();
  const size_t i = static_cast<size_t>(std::upper_bound(e.begin(), e.end(), eps) - e.begin()) - 1;
  const double f = (eps - e[i]) / (e[i + 1] - e[i]);
  return p.cross_section[i] + f * (p.cross_section[i + 1] - p.cross_section[i]);
}

bool is_elastic(const Process& p) {
  return p.kind == ProcessKind::kElastic || p.kind == ProcessKind::kEffective;
}

Effect effect_of(ProcessKind k) {
  switch (k) {
    case ProcessKind::kExcitation:
      return Effect::kExcitation;
    case ProcessKind::kIonization:
      return Effect::kIonization;
    case ProcessKind::kAttachment:
      return Effect::kAttachment;
    default:
      return Effect::kElastic;
  }
}

}  // namespace

double speed_of(double eps) {
  const double k = eps / kElectronRestEnergyEv;  // gamma - 1
  const double gamma = 1.0 + k;
  return kSpeedOfLight * std::sqrt(k * (k + 2.0)) / gamma;
}

uint32_t grid_rows(double top) {
  return static_cast<uint32_t>(std::min(65536.0, std::ceil(top / 0.0005))) + 1;
}

std::vector<GasComponent> parse_gas(const std::string& text) {
  const auto bad = [&text](const std::string& why) {
    return UsageError(fmt::format(
        "--gas: '{}' {}; accepted: SPECIES:FRACTION,... with fractions in (0, 1] summing to 1 "
        "(within 1e-6), e.g. N2:0.8,O2:0.2",
        printable(text), why));
  };
  std::vector<GasComponent> out;
  double sum = 0;
  for (const std::string& item : split(text, ',')) {
    const size_t colon = item.find(':');
    if (colon == std::string::npos || colon == 0)
      throw bad(fmt::format("has '{}'", printable(item)));
    const std::string number = item.substr(colon + 1);
    const std::optional<double> parsed = parse_decimal(number);
    const double f = parsed.value_or(0.0);
    if (!parsed || !(f > 0 && f <= 1)) {
      throw bad(fmt::format("has fraction '{}'", printable(number)));
    }
    const std::string species = item.substr(0, colon);
    for (const GasComponent& g : out) {
      if (g.species == species) throw bad(fmt::format("names {} twice", printable(species)));
    }
    out.push_back({species, f});
    sum += f;
  }
  if (out.empty()) throw bad("names no species");
  if (std::fabs(sum - 1.0) > 1e-6) throw bad(fmt::format("has fractions summing to {}", sum));
  return out;
}

CollisionTable build_table(const std::vector<Process>& file, const TableSpec& spec) {
  std::vector<std::string> in_file;
  for (const Process& p : file) {
    if (std::find(in_file.begin(), in_file.end(), p.species) == in_file.end())
      in_file.push_back(p.species);
  }
  // Per species: its elastic process (ELASTIC first, else EFFECTIVE) and its inelastic ones.
  std::vector<const Process*> elastic(spec.gas.size(), nullptr);
  std::vector<std::vector<const Process*>> inelastic(spec.gas.size());
  for (size_t s = 0; s < spec.gas.size(); ++s) {
    const std::string& name = spec.gas[s].species;
    if (std::find(in_file.begin(), in_file.end(), name) == in_file.end()) {
      throw UsageError(fmt::format("--gas: species {} is not in {}; the file has: {}",
                                   printable(name), spec.path, fmt::join(in_file, ", ")));
    }
    for (const Process& p : file) {
      if (p.species != name) continue;
      if (!is_elastic(p)) {
        inelastic[s].push_back(&p);
      } else if (elastic[s] == nullptr ||
                 (p.kind == ProcessKind::kElastic && elastic[s]->kind == ProcessKind::kEffective)) {
        elastic[s] = &p;
      }
    }
    if (elastic[s] == nullptr) {
      throw UsageError(
          fmt::format("{}: species {} has no ELASTIC or EFFECTIVE cross section", spec.path, name));
    }
  }

  CollisionTable t;
  t.top = spec.max_energy;
  if (t.top <= 0) {
    t.top = elastic[0]->energy.back();
    for (const Process* p : elastic)
      t.top = std::min(t.top, p->energy.back());
  }
  t.rows = grid_rows(t.top);
  const double step = t.top / (t.rows - 1);
  t.inv_step = (t.rows - 1) / t.top;

  // Column order: per species, elastic then its inelastic processes in file order.
  std::vector<const Process*> columns;
  std::vector<size_t> column_species;
  for (size_t s = 0; s < spec.gas.size(); ++s) {
    const double mass = kElectronMass / elastic[s]->parameter;
    const double thermal = std::sqrt(kBoltzmann * spec.temperature / mass);
    columns.push_back(elastic[s]);
    column_species.push_back(s);
    t.processes.push_back(
        {Effect::kElastic, static_cast<uint32_t>(s), 0.0, elastic[s]->parameter, thermal});
    t.names.push_back(
        fmt::format("{} ELASTIC{}", spec.gas[s].species,
                    elastic[s]->kind == ProcessKind::kEffective ? " (effective)" : ""));
    for (const Process* p : inelastic[s]) {
      columns.push_back(p);
      column_species.push_back(s);
      t.processes.push_back({effect_of(p->kind), static_cast<uint32_t>(s), p->parameter, 0.0, 0.0});
      t.names.push_back(fmt::format("{}{} {}", p->species,
                                    p->product.empty() ? "" : " -> " + p->product,
                                    kind_name(p->kind)));
    }
  }
  const size_t k = columns.size();
  t.cumulative.assign(static_cast<size_t>(t.rows) * k, 0.0);
  // The density a TIMES_N (three-body) cross section is multiplied by, in cm^-3 (LXCat's unit).
  const auto density_cm3 = [&](size_t species) {
    return spec.density * 1e-6 * (spec.three_body_partial ? spec.gas[species].fraction : 1.0);
  };
  for (uint32_t row = 0; row < t.rows; ++row) {
    const double eps = row * step;
    const double v = speed_of(eps);
    double sum = 0;
    for (size_t c = 0; c < k; ++c) {
      const Process& p = *columns[c];
      const size_t s = column_species[c];
      double sigma = cross_section_at(p, eps);
      if (p.kind == ProcessKind::kEffective) {
        for (const Process* q : inelastic[s])
          sigma -= cross_section_at(*q, eps) * (q->times_n ? density_cm3(s) : 1.0);
        sigma = std::max(sigma, 0.0);
      }
      if (p.times_n) sigma *= density_cm3(s);
      sum += spec.density * spec.gas[s].fraction * sigma * v;
      t.cumulative[row * k + c] = sum;
    }
    t.nu_max = std::max(t.nu_max, sum);
  }
  return t;
}

}  // namespace sb::air
