#include "core/printable.hpp"

#include <fmt/format.h>

namespace sb {

std::string printable(std::string_view text, size_t max_chars) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const std::string shown =
        byte >= 0x20 && byte < 0x7f ? std::string(1, c) : fmt::format("\\x{:02x}", byte);
    if (out.size() + shown.size() > max_chars) return out + "...";
    out += shown;
  }
  return out;
}

}  // namespace sb
