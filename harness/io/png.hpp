// PNG output of pictures.
#pragma once

#include <string>

#include "core/image.hpp"

namespace sb {

// Writes `img` to `path` as PNG, atomically; throws std::runtime_error on failure.
void write_png(const std::string& path, const Image& img);

}  // namespace sb
