#include "core/declared_parameter.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/values.hpp"

namespace sb {
namespace {

DeclaredParameter declare(std::string key, std::string flag, std::string help, std::string label,
                          ValueKind kind, std::optional<std::string> fallback) {
  DeclaredParameter p;
  p.key = std::move(key);
  p.flag = std::move(flag);
  p.help = std::move(help);
  p.label = std::move(label);
  p.kind = kind;
  p.fallback = std::move(fallback);
  return p;
}

// A whole number's canonical text: the zero word as given, or the number in [whole_lo, whole_hi]
// and a multiple of whole_multiple.
std::string canonical_whole(const DeclaredParameter& p, const std::string& where,
                            const std::string& text) {
  if (!p.zero_word.empty() && text == p.zero_word) return text;
  uint64_t v = 0;
  try {
    v = parse_whole(where, text, p.whole_lo, p.whole_hi);
  } catch (const UsageError&) {
    if (p.zero_word.empty()) throw;
    throw UsageError(fmt::format(
        "{}: '{}' is not accepted; accepted: {} or a whole number from {} to {}, written in "
        "decimal",
        where, printable(text), p.zero_word, p.whole_lo, p.whole_hi));
  }
  if (v % p.whole_multiple != 0) {
    throw UsageError(fmt::format("{}: '{}' is not a multiple of {} from {} to {}", where, text,
                                 p.whole_multiple, p.whole_lo, p.whole_hi));
  }
  return std::to_string(v);
}

}  // namespace

std::string shortest_text(double v) {
  return fmt::format("{}", v);
}

void DeclaredParameter::set(RunConfig& c, const std::string& where, const std::string& text) const {
  std::string canonical;
  switch (kind) {
    case ValueKind::kWhole:
      canonical = canonical_whole(*this, where, text);
      break;
    case ValueKind::kReal:
      canonical = shortest_text(parse_real(where, text, real_lo, real_hi));
      break;
    case ValueKind::kSwitch:
      canonical = parse_bool(where, text) ? "true" : "false";
      break;
    case ValueKind::kChoice:
      canonical = parse_choice(where, text, choices);
      break;
    case ValueKind::kText:
      if (text.empty()) {
        throw UsageError(fmt::format("{}: empty; accepted: {}", where, accepted));
      }
      canonical = text;
      break;
  }
  store(c, canonical);
}

void DeclaredParameter::store(RunConfig& c, const std::string& canonical) const {
  const auto number = [this, &canonical]() -> uint64_t {
    return canonical == zero_word ? 0 : std::stoull(canonical);
  };
  std::visit(
      [&](auto m) {
        using M = decltype(m);
        if constexpr (std::is_same_v<M, std::monostate>) {
          c.declared_values[key] = canonical;
        } else {
          c.*m = static_cast<std::remove_reference_t<decltype(c.*m)>>(number());
        }
      },
      member);
}

bool DeclaredParameter::given(const RunConfig& c) const {
  return !std::holds_alternative<std::monostate>(member) || c.declared_values.count(key) != 0;
}

void DeclaredParameter::clear(RunConfig& c) const {
  if (std::holds_alternative<std::monostate>(member)) {
    c.declared_values.erase(key);
  } else {
    store(c, *fallback);
  }
}

std::string DeclaredParameter::stored(const RunConfig& c) const {
  if (!std::holds_alternative<std::monostate>(member)) {
    return std::visit(
        [&](auto m) -> std::string {
          using M = decltype(m);
          if constexpr (std::is_same_v<M, std::monostate>) {
            return "";
          } else {
            return c.*m == 0 && !zero_word.empty() ? zero_word : std::to_string(c.*m);
          }
        },
        member);
  }
  const auto it = c.declared_values.find(key);
  if (it != c.declared_values.end()) return it->second;
  if (!fallback) throw std::logic_error(key + ": read while not given and without a default");
  return *fallback;
}

// Stored values were checked by set(), and defaults are written by the declarations below, so
// these parse without a failure path of their own.
uint64_t DeclaredParameter::whole(const RunConfig& c) const {
  const std::string text = stored(c);
  return text == zero_word ? 0 : parse_whole(flag, text, whole_lo, whole_hi);
}

double DeclaredParameter::real(const RunConfig& c) const {
  return parse_real(flag, stored(c), real_lo, real_hi);
}

bool DeclaredParameter::on(const RunConfig& c) const {
  return parse_bool(flag, stored(c));
}

std::string DeclaredParameter::text(const RunConfig& c) const {
  return stored(c);
}

DeclaredParameter whole_parameter(std::string key, std::string flag, std::string help,
                                  std::string label, uint64_t lo, uint64_t hi,
                                  std::optional<uint64_t> fallback) {
  DeclaredParameter p =
      declare(std::move(key), std::move(flag), std::move(help), std::move(label), ValueKind::kWhole,
              fallback ? std::optional(std::to_string(*fallback)) : std::nullopt);
  p.whole_lo = lo;
  p.whole_hi = hi;
  return p;
}

DeclaredParameter real_parameter(std::string key, std::string flag, std::string help,
                                 std::string label, double lo, double hi,
                                 std::optional<double> fallback) {
  DeclaredParameter p =
      declare(std::move(key), std::move(flag), std::move(help), std::move(label), ValueKind::kReal,
              fallback ? std::optional(shortest_text(*fallback)) : std::nullopt);
  p.real_lo = lo;
  p.real_hi = hi;
  return p;
}

DeclaredParameter switch_parameter(std::string key, std::string flag, std::string help,
                                   std::string label) {
  return declare(std::move(key), std::move(flag), std::move(help), std::move(label),
                 ValueKind::kSwitch, std::string("false"));
}

DeclaredParameter choice_parameter(std::string key, std::string flag, std::string help,
                                   std::string label, std::vector<std::string> choices,
                                   std::string fallback) {
  DeclaredParameter p = declare(std::move(key), std::move(flag), std::move(help), std::move(label),
                                ValueKind::kChoice, std::move(fallback));
  p.choices = std::move(choices);
  return p;
}

DeclaredParameter text_parameter(std::string key, std::string flag, std::string help,
                                 std::string label, std::string accepted,
                                 std::optional<std::string> fallback) {
  DeclaredParameter p = declare(std::move(key), std::move(flag), std::move(help), std::move(label),
                                ValueKind::kText, std::move(fallback));
  p.accepted = std::move(accepted);
  return p;
}

DeclaredParameter required(DeclaredParameter p) {
  p.required = true;
  return p;
}

DeclaredParameter with_role(DeclaredParameter p, ParameterRole role) {
  p.role = role;
  return p;
}

DeclaredParameter renamed(DeclaredParameter p, std::string old_key) {
  p.renamed_from = std::move(old_key);
  return p;
}

DeclaredParameter recorded_when_given(DeclaredParameter p) {
  p.record_default = false;
  return p;
}

const DeclaredParameter& steps_parameter() {
  static const DeclaredParameter p = required(whole_parameter(
      "steps", "--steps", "toy, mvp: time steps", "time steps", 1, kMaxSteps, std::nullopt));
  return p;
}

}  // namespace sb
