// Numbers as a user writes them: decimal only. The command line, job files and cross-section
// files read numbers through these two functions, so that one rule holds everywhere
// (docs/guide.md, "Numbers").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sb {

// `text` whole as a decimal number: an optional '-', digits with an optional fraction and an
// optional exponent ("250", "-0.5", "2.5e-3", "1E6"). Nothing else: no '+' sign, spaces, hex,
// inf or nan, and no value a double cannot hold (1e400, 1e-400).
std::optional<double> parse_decimal(std::string_view text);

// `text` whole as a decimal whole number: digits, or a decimal number of whole value up to 2^53
// ("1e6", "1000.0"), where a double still counts exactly. Nothing negative or fractional.
std::optional<uint64_t> parse_decimal_whole(std::string_view text);

}  // namespace sb
