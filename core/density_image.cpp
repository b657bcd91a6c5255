#include "core/density_image.hpp"

#include <algorithm>
#include <cmath>

namespace sb {

Image density_image(const std::vector<uint32_t>& counts, int width, int height) {
  const uint32_t most = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  const int longer = std::max(width, height);
  const int scale = (512 + longer - 1) / longer;
  Image img{width * scale, height * scale, {}};
  img.rgb.resize(static_cast<size_t>(img.width) * img.height * 3);
  const double top = std::log1p(static_cast<double>(most));
  for (int py = 0; py < img.height; ++py) {
    for (int px = 0; px < img.width; ++px) {
      const uint32_t c = counts[static_cast<size_t>(height - 1 - py / scale) * width + px / scale];
      heat_colour(top > 0 ? std::log1p(static_cast<double>(c)) / top : 0.0,
                  &img.rgb[(static_cast<size_t>(py) * img.width + px) * 3]);
    }
  }
  return img;
}

}  // namespace sb
