#include "sims/pic/cross_sections.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "core/errors.hpp"
#include "sims/pic/constants.hpp"

namespace sb::pic {
namespace {

[[noreturn]] void bad_line(const std::string& path, size_t line, const std::string& why) {
  throw UsageError(
      fmt::format("{}:{}: {}; accepted: {} lines of two percentages (split remove), "
                  "each from 0 to 100",
                  path, line, why, kLevels));
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
  std::ifstream in(path);
  if (!in) throw UsageError(fmt::format("--cross-section: cannot read '{}'", path));
  CrossSections cs;
  std::string text;
  size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (line > kLevels) bad_line(path, line, "more lines than energy levels");
    const char* s = text.c_str();
    char* end = nullptr;
    double v[2];
    for (double& value : v) {
      errno = 0;
      value = std::strtod(s, &end);
      if (end == s || errno == ERANGE || !std::isfinite(value)) {
        bad_line(path, line, fmt::format("'{}' is not two numbers", text));
      }
      if (value < 0 || value > 100) {
        bad_line(path, line, fmt::format("{} is not a percentage", value));
      }
      s = end;
      while (*s == ' ' || *s == '\t' || *s == ',')
        ++s;
    }
    if (*s != '\0' && *s != '\r')
      bad_line(path, line, fmt::format("'{}' is not two numbers", text));
    cs.split.push_back(v[0]);
    cs.remove.push_back(v[1]);
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
