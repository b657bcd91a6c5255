#include "harness/json_file.hpp"

#include <fmt/format.h>

#include <fstream>

#include "core/errors.hpp"

namespace sb {

nlohmann::ordered_json read_json_file(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw UsageError(fmt::format("{}: cannot read the {}", path, what));
  try {
    return nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::ordered_json::parse_error& e) {
    throw UsageError(fmt::format("{}: not valid JSON ({})", path, e.what()));
  }
}

}  // namespace sb
