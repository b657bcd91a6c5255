#include "core/values.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

#include "core/decimal.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"

namespace sb {

uint64_t parse_whole(const std::string& option, const std::string& text, uint64_t lo, uint64_t hi) {
  const std::optional<uint64_t> v = parse_decimal_whole(text);
  if (!v || *v < lo || *v > hi) {
    throw UsageError(fmt::format("{}: '{}' is not a whole number from {} to {}, written in decimal",
                                 option, printable(text), lo, hi));
  }
  return *v;
}

double parse_real(const std::string& option, const std::string& text, double lo, double hi) {
  const std::optional<double> v = parse_decimal(text);
  if (!v || *v < lo || *v > hi) {
    throw UsageError(fmt::format("{}: '{}' is not a number from {} to {}, written in decimal",
                                 option, printable(text), lo, hi));
  }
  return *v;
}

std::string parse_choice(const std::string& option, const std::string& text,
                         const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), text) == choices.end()) {
    throw UsageError(fmt::format("{}: '{}' is not accepted; accepted: {}", option, printable(text),
                                 fmt::join(choices, ", ")));
  }
  return text;
}

bool parse_bool(const std::string& option, const std::string& text) {
  if (text == "true" || text == "on" || text == "yes" || text == "1") return true;
  if (text == "false" || text == "off" || text == "no" || text == "0") return false;
  throw UsageError(
      fmt::format("{}: '{}' is not a yes/no value; accepted: true, false, on, off, yes, no, 1, 0",
                  option, printable(text)));
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  // Every piece, the last included where `text` ends in `sep` ("a,b," has an empty third piece,
  // which the caller's check refuses), unlike getline, which drops it.
  size_t start = 0;
  for (size_t at = text.find(sep); at != std::string::npos; at = text.find(sep, start)) {
    out.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  out.push_back(text.substr(start));
  return out;
}

}  // namespace sb
