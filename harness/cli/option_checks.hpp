// CLI11 checks that the commands' options share.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace sb {

// An option given "" is refused, never taken for "not given" (`--frame-every ""`).
inline CLI::Validator not_empty() {
  return CLI::Validator(
      [](const std::string& text) {
        return text.empty() ? std::string("empty; accepted: a value") : std::string();
      },
      "");
}

}  // namespace sb
