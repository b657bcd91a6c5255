#include "core/decimal.hpp"

#include <charconv>
#include <cmath>

namespace sb {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Skips the digits at `i`; how many there were.
size_t skip_digits(std::string_view text, size_t& i) {
  const size_t from = i;
  while (i < text.size() && is_digit(text[i]))
    ++i;
  return i - from;
}

// The grammar of parse_decimal. std::from_chars alone would also take "inf", "nan" and
// hexadecimal fractions' look-alikes, so the text is checked first.
bool is_decimal(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && text[i] == '-') ++i;
  size_t digits = skip_digits(text, i);
  if (i < text.size() && text[i] == '.') {
    ++i;
    digits += skip_digits(text, i);
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (skip_digits(text, i) == 0) return false;
  }
  return i == text.size();
}

}  // namespace

std::optional<double> parse_decimal(std::string_view text) {
  if (!is_decimal(text)) return std::nullopt;
  double v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

std::optional<uint64_t> parse_decimal_whole(std::string_view text) {
  uint64_t n = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (error == std::errc() && end == text.data() + text.size()) return n;
  if (error == std::errc::result_out_of_range) return std::nullopt;
  constexpr double kExactLimit = 9007199254740992.0;  // 2^53
  const std::optional<double> v = parse_decimal(text);
  if (!v || *v < 0 || *v > kExactLimit || *v != std::floor(*v)) return std::nullopt;
  return static_cast<uint64_t>(*v);
}

}  // namespace sb
