#include "harness/io/json_file.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/printable.hpp"

namespace sb {

nlohmann::ordered_json read_json_file(const std::string& path, const std::string& what) {
  constexpr size_t kMaxBytes = size_t{1} << 30;  // far above any job or results file
  const std::string text = read_input_file(path, what, kMaxBytes);
  try {
    return nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::ordered_json::exception& e) {
    // parse_error, or out_of_range for a number a double cannot hold (1e400).
    throw UsageError(
        fmt::format("{}: not valid JSON ({})", printable(path), printable(e.what(), 200)));
  }
}

}  // namespace sb
