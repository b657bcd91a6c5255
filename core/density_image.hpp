// A density map of counts per cell as a picture (pic's and air's --density-png), with a colour
// bar of the counts and a length bar.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/image.hpp"

namespace sb {

// Where the parts of a density picture of width x height cells lie, in pixels from the top left:
// the map at (0, 0), the colour bar right of it (its top the largest count, its bottom 0), the
// length bar under them.
struct DensityLayout {
  int cell_pixels = 0;  // each cell a square of this many pixels
  int map_width = 0, map_height = 0;
  int bar_left = 0, bar_width = 0, bar_top = 0, bar_bottom = 0;  // bar_bottom: its last row
  int label_left = 0;                                            // the ticks' labels
  int length_bar_top = 0;
  int width = 0, height = 0;  // the whole picture
};
DensityLayout density_layout(int width, int height);

// The label scale of the pictures' text: each font pixel a square of this many pixels.
inline constexpr int kLabelScale = 2;

// A labelled tick of the colour bar: a count, its text, and its row.
struct DensityTick {
  uint64_t count;
  std::string label;  // "0", "10", "1000", "1e5", "1.2e5"
  int row;
};
// The colour bar's ticks for counts up to `most` on the bar of `layout`, top first: `most`, the
// powers of ten below it that leave room for their labels, and 0.
std::vector<DensityTick> density_ticks(uint64_t most, const DensityLayout& layout);

// The length bar's length in metres for cells of `cell_m` metres on the map of `layout`: 1, 2 or
// 5 times a power of ten, at most a third of the map's width, and its label ("0.02 m",
// "5e-6 m").
std::pair<double, std::string> length_bar(double cell_m, const DensityLayout& layout);

// counts holds width x height cells of `cell_m` metres, row 0 at the bottom. Each cell becomes a
// square of pixels (a whole number of pixels, so that the longer side has at least 512), coloured
// by log(1 + count) over the largest: a swarm's core and its sparse edge are both visible. The
// colour bar says which colour is how many particles per cell, the length bar how long the map's
// cells are.
Image density_image(const std::vector<uint32_t>& counts, int width, int height, double cell_m);

}  // namespace sb
