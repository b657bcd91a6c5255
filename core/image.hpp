// An RGB picture of a particle set, for PNG output (harness/io/png.cpp).
#pragma once

#include <cstdint>
#include <vector>

namespace sb {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;  // width * height * 3, rows top to bottom
};

// A perceptually ordered colour for t in [0, 1] (dark blue through red to pale yellow).
inline void heat_colour(double t, uint8_t* rgb) {
  static const double stops[5][3] = {{0.05, 0.03, 0.20},
                                     {0.35, 0.05, 0.50},
                                     {0.80, 0.20, 0.30},
                                     {0.98, 0.60, 0.10},
                                     {0.99, 0.99, 0.75}};
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const double s = t * 4;
  const int i = s >= 4 ? 3 : static_cast<int>(s);
  const double f = s - i;
  for (int c = 0; c < 3; ++c) {
    rgb[c] =
        static_cast<uint8_t>(255.0 * (stops[i][c] + f * (stops[i + 1][c] - stops[i][c])) + 0.5);
  }
}

}  // namespace sb
