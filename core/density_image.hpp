// A density map of counts per cell as a picture (pic's and air's --density-png).
#pragma once

#include <cstdint>
#include <vector>

#include "core/image.hpp"

namespace sb {

// counts holds width x height cells, row 0 at the bottom. Each cell becomes a square of pixels
// (a whole number of pixels, so that the longer side has at least 512), coloured by log(1 + count)
// over the largest: a swarm's core and its sparse edge are both visible.
Image density_image(const std::vector<uint32_t>& counts, int width, int height);

}  // namespace sb
