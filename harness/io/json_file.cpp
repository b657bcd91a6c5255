#include "harness/io/json_file.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/printable.hpp"

namespace sb {

nlohmann::ordered_json parse_json_text(const std::string& text, const std::string& where) {
  using Json = nlohmann::ordered_json;
  const auto refuse = [&](const std::string& why) {
    return UsageError(fmt::format("{}: not valid JSON ({})", printable(where), why));
  };
  const size_t nul = text.find('\0');
  if (nul != std::string::npos) throw refuse(fmt::format("a NUL byte at offset {}", nul));
  // Called as each value starts and ends; `depth` counts the arrays and objects around it.
  const Json::parser_callback_t bounded = [&](int depth, Json::parse_event_t event, Json&) {
    const bool opens =
        event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start;
    if (opens && depth >= kMaxJsonDepth) {
      throw refuse(fmt::format("nested deeper than {} levels; accepted: at most {}", kMaxJsonDepth,
                               kMaxJsonDepth));
    }
    return true;
  };
  try {
    return Json::parse(text, bounded);
  } catch (const Json::exception& e) {
    // parse_error, or out_of_range for a number a double cannot hold (1e400).
    throw refuse(printable(e.what(), 200));
  }
}

nlohmann::ordered_json read_json_file(const std::string& path, const std::string& what) {
  constexpr size_t kMaxBytes = size_t{1} << 30;  // far above any job or results file
  return parse_json_text(read_input_file(path, what, kMaxBytes), path);
}

}  // namespace sb
