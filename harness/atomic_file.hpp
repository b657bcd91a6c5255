// Results are written whole or not at all: to a temporary file beside the target, flushed to
// disk, then renamed over it. A crash leaves either the old file or the new one.
#pragma once

#include <string>

namespace sb {

// Writes `text` to `path`; throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace sb
