#include "harness/values.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/errors.hpp"

namespace sb {
namespace {

// strtod over the whole text, or NaN.
double whole_text_as_double(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return NAN;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v)) return NAN;
  return v;
}

}  // namespace

uint64_t parse_whole(const std::string& option, const std::string& text, uint64_t lo, uint64_t hi) {
  const double v = whole_text_as_double(text);
  if (std::isnan(v) || v != std::floor(v) || v < static_cast<double>(lo) ||
      v > static_cast<double>(hi)) {
    throw UsageError(
        fmt::format("{}: '{}' is not a whole number from {} to {}", option, text, lo, hi));
  }
  return static_cast<uint64_t>(v);
}

double parse_real(const std::string& option, const std::string& text, double lo, double hi) {
  const double v = whole_text_as_double(text);
  if (std::isnan(v) || v < lo || v > hi) {
    throw UsageError(fmt::format("{}: '{}' is not a number from {} to {}", option, text, lo, hi));
  }
  return v;
}

std::string parse_choice(const std::string& option, const std::string& text,
                         const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), text) == choices.end()) {
    throw UsageError(fmt::format("{}: '{}' is not accepted; accepted: {}", option, text,
                                 fmt::join(choices, ", ")));
  }
  return text;
}

bool parse_bool(const std::string& option, const std::string& text) {
  if (text == "true" || text == "on" || text == "yes" || text == "1") return true;
  if (text == "false" || text == "off" || text == "no" || text == "0") return false;
  throw UsageError(
      fmt::format("{}: '{}' is not a yes/no value; accepted: true, false, on, off, yes, no, 1, 0",
                  option, text));
}

}  // namespace sb
