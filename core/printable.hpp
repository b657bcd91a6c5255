// User text inside a one-line message: a file's line, an option's value.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sb {

// `text` with every byte outside printable ASCII written as \xNN (so a message stays one line
// whatever it quotes), cut to `max_chars` characters with "..." where it was longer.
std::string printable(std::string_view text, size_t max_chars = 80);

}  // namespace sb
