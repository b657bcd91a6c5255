#include "sims/pic/cross_sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/decimal.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/printable.hpp"
#include "sims/pic/constants.hpp"

namespace sb::pic {
namespace {

// Above any table written as two numbers of a few digits per line: a larger file is not one.
constexpr size_t kMaxFileBytes = size_t{kLevels} * 200;

[[noreturn]] void bad_line(const std::string& path, size_t line, const std::string& why) {
  throw UsageError(
      fmt::format("{}:{}: {}; accepted: {} lines of two percentages (split remove) in decimal, "
                  "each from 0 to 100, their sum at most 100",
                  printable(path), line, why, kLevels));
}

// The line's fields, split at runs of spaces, tabs and commas.
std::vector<std::string_view> fields(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (true) {
    i = text.find_first_not_of(" \t,", i);
    if (i == std::string_view::npos) return out;
    const size_t end = std::min(text.find_first_of(" \t,", i), text.size());
    out.push_back(text.substr(i, end - i));
    i = end;
  }
}

// Split and remove percent of one line.
std::pair<double, double> read_line(const std::string& path, size_t line, std::string_view text) {
  const std::vector<std::string_view> f = fields(text);
  std::optional<double> split, remove;
  if (f.size() == 2) {
    split = parse_decimal(f[0]);
    remove = parse_decimal(f[1]);
  }
  if (!split || !remove) {
    bad_line(path, line, fmt::format("'{}' is not two numbers", printable(text)));
  }
  const double v[2] = {*split, *remove};
  for (const double x : v) {
    if (x < 0 || x > 100) bad_line(path, line, fmt::format("{} is not a percentage", x));
  }
  if (v[0] + v[1] > 100) {
    bad_line(path, line,
             fmt::format("split {} + remove {} is {} %, above 100", v[0], v[1], v[0] + v[1]));
  }
  return {v[0], v[1]};
}

}  // namespace

CrossSections synthetic_cross_sections() {
  CrossSections cs{std::vector<double>(kLevels, 0.0), std::vector<double>(kLevels, 0.0)};
  for (uint32_t i = 1; i < kLevels; ++i) {
    const double x = static_cast<double>(i);
    cs.split[i] = cs.remove[i] = (std::sin(std::pow(x, 2.6) / 5e7) + 1.01) * std::pow(x, 0.1);
  }
  return cs;
}

CrossSections constant_cross_sections(double chance) {
  return {std::vector<double>(kLevels, chance / 2), std::vector<double>(kLevels, chance / 2)};
}

CrossSections read_cross_sections(const std::string& path) {
  const std::string file = read_input_file(path, "cross-section file", kMaxFileBytes);
  std::string_view text = file;
  CrossSections cs;
  size_t line = 0;
  while (!text.empty()) {
    ++line;
    if (line > kLevels) bad_line(path, line, "more lines than energy levels");
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view content = text.substr(0, end);
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    const auto [split, remove] = read_line(path, line, content);
    cs.split.push_back(split);
    cs.remove.push_back(remove);
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  if (line < kLevels) {
    bad_line(path, line + 1, fmt::format("the file ends after {} lines", line));
  }
  return cs;
}

std::string format_cross_sections(const CrossSections& cs) {
  std::string out;
  for (size_t i = 0; i < cs.split.size(); ++i)
    out += fmt::format("{} {}\n", cs.split[i], cs.remove[i]);
  return out;
}

}  // namespace sb::pic
