// Parsing of user-given values (options, job files, sim parameters). Each failure is a
// UsageError whose one line names the option, the bad value and what is accepted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sb {

// A whole number in [lo, hi], written in decimal (core/decimal.hpp): "1e6" and "1000000" are both
// accepted, "1.5", "0x10" and "inf" are not.
uint64_t parse_whole(const std::string& option, const std::string& text, uint64_t lo, uint64_t hi);

// A real number in [lo, hi], written in decimal (core/decimal.hpp).
double parse_real(const std::string& option, const std::string& text, double lo, double hi);

// One of `choices`.
std::string parse_choice(const std::string& option, const std::string& text,
                         const std::vector<std::string>& choices);

// true/false, on/off, yes/no, 1/0.
bool parse_bool(const std::string& option, const std::string& text);

// `text` cut at each `sep`: "a,b" -> {"a", "b"}; "a,b," -> {"a", "b", ""}; "" -> {}.
std::vector<std::string> split(const std::string& text, char sep);

}  // namespace sb
