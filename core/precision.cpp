#include "core/precision.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace sb::precision {

const DeclaredParameter& parameter() {
  static const DeclaredParameter p = recorded_when_given(choice_parameter(
      "precision", "--precision",
      "pic (mock field) and air (applied fields): the particles' floating point, double "
      "(default), mixed (positions and clocks double, the rest float) or single",
      "floating-point precision", {Double::kName, Mixed::kName, Single::kName}, Double::kName));
  return p;
}

void refuse_reduced(const RunConfig& c, const char* instead) {
  if (parameter().text(c) != Double::kName) {
    throw UsageError(fmt::format("{}: {} is not offered here, only double: {}", parameter().flag,
                                 parameter().text(c), instead));
  }
}

}  // namespace sb::precision
