// The density pictures (pic's and air's --density-png): their colour bar, its labels drawn in
// the bitmap font, and their length bar.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/bitmap_font.hpp"
#include "core/density_image.hpp"

namespace sb {
namespace {

// The colour bar's labels: the largest count at the top, the powers of ten below it, 0 at the
// bottom; counts of 10^5 and more in mantissa and exponent.
TEST(DensityPicture, ColourBarTicksAreTheCountsOfTheBar) {
  const DensityLayout l = density_layout(128, 128);
  std::vector<std::string> labels;
  for (const DensityTick& t : density_ticks(1000, l))
    labels.push_back(t.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"1000", "100", "10", "1", "0"}));
  const std::vector<DensityTick> big = density_ticks(123456, l);
  EXPECT_EQ(big.front().label, "1.2e5");
  EXPECT_EQ(big.front().row, l.bar_top);
  EXPECT_EQ(big.back().row, l.bar_bottom);
  EXPECT_EQ(density_ticks(100000, l).front().label, "1e5");
}

// The picture holds the map, the colour bar (its top the largest count's colour, its bottom
// 0's) with the largest count written beside its top, and a length bar of its label's length.
TEST(DensityPicture, HasAColourBarWithLabelsAndALengthBar) {
  const int w = 32, h = 16;
  std::vector<uint32_t> counts(static_cast<size_t>(w) * h, 0);
  counts[5] = 1000;
  const Image img = density_image(counts, w, h, 1e-2);
  const DensityLayout l = density_layout(w, h);
  ASSERT_EQ(img.width, l.width);
  ASSERT_EQ(img.height, l.height);
  ASSERT_GT(l.width, l.map_width);
  const auto pixel = [&img](int x, int y) {
    const uint8_t* p = &img.rgb[(static_cast<size_t>(y) * img.width + x) * 3];
    return std::vector<uint8_t>{p[0], p[1], p[2]};
  };
  const auto colour = [](double t) {
    uint8_t rgb[3];
    heat_colour(t, rgb);
    return std::vector<uint8_t>{rgb[0], rgb[1], rgb[2]};
  };
  const int mid = l.bar_left + l.bar_width / 2;
  EXPECT_EQ(pixel(mid, l.bar_top), colour(1));
  EXPECT_EQ(pixel(mid, l.bar_bottom), colour(0));
  EXPECT_EQ(pixel(mid, (l.bar_top + l.bar_bottom) / 2), colour(0.5));
  // The label "1000" is drawn at the top tick: the picture's pixels there are the font's.
  const DensityTick top = density_ticks(1000, l).front();
  ASSERT_EQ(top.label, "1000");
  const int text_h = kGlyphHeight * kLabelScale, text_w = text_width("1000", kLabelScale);
  Image expected{img.width, img.height, std::vector<uint8_t>(img.rgb.size(), 255)};
  const uint8_t ink[3] = {0, 0, 0};
  draw_text(expected, l.label_left, top.row - text_h / 2, "1000", kLabelScale, ink);
  int inked = 0;
  for (int y = top.row - text_h / 2; y < top.row - text_h / 2 + text_h; ++y) {
    for (int x = l.label_left; x < l.label_left + text_w; ++x) {
      const size_t i = (static_cast<size_t>(y) * img.width + x) * 3;
      ASSERT_EQ(img.rgb[i], expected.rgb[i]) << x << "," << y;
      inked += expected.rgb[i] == 0;
    }
  }
  EXPECT_GT(inked, 50);
  // 32 cells of 1 cm: a third is 10.7 cm, so the length bar is 10 cm, 10 cells long.
  const auto [length_m, label] = length_bar(1e-2, l);
  EXPECT_DOUBLE_EQ(length_m, 0.1);
  EXPECT_EQ(label, "0.1 m");
  const int y = l.length_bar_top + text_h / 2;
  EXPECT_EQ(pixel(6 + 10 * l.cell_pixels - 3, y), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ(pixel(6 + 10 * l.cell_pixels + 3, y), (std::vector<uint8_t>{255, 255, 255}));
}

TEST(DensityPicture, LengthBarLabelsSmallLengthsWithAnExponent) {
  const DensityLayout l = density_layout(128, 20);
  EXPECT_EQ(length_bar(1e-7, l).second, "2e-6 m");  // a third of 12.8 um is 4.3 um
}

}  // namespace
}  // namespace sb
