#include "core/density_image.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/bitmap_font.hpp"

namespace sb {
namespace {

constexpr uint8_t kInk[3] = {0, 0, 0};
constexpr int kGap = 12;  // between the map and the bar, around the labels
constexpr int kBarWidth = 20;
constexpr int kTickLength = 5;
constexpr int kMinBarHeight = 160;  // a bar readable beside a flat map
constexpr int kTextHeight = kGlyphHeight * kLabelScale;
constexpr const char* kBarTitle = "per cell";

// The widest tick label: a count below 10^5, or mantissa and exponent ("1.2e5").
constexpr int kLabelChars = 5;

// A count as a tick label: whole below 10^5, else one decimal of the mantissa ("1.2e5"; a
// power of ten "1e5").
std::string count_label(uint64_t c) {
  if (c < 100000) return std::to_string(c);
  const int exponent = static_cast<int>(std::floor(std::log10(static_cast<double>(c))));
  const double mantissa = static_cast<double>(c) / std::pow(10.0, exponent);
  const double tenths = std::round(mantissa * 10) / 10;
  if (tenths == std::floor(tenths)) return fmt::format("{:.0f}e{}", tenths, exponent);
  return fmt::format("{:.1f}e{}", tenths, exponent);
}

// `v` as the font writes it: "{:g}", the exponent without '+' or leading zeros ("5e-06" ->
// "5e-6").
std::string short_number(double v) {
  std::string text = fmt::format("{:g}", v);
  const size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  const bool negative = exponent[0] == '-';
  exponent = exponent.substr(exponent.find_first_not_of("+-0"));
  return text.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

void fill(Image& img, int x0, int y0, int x1, int y1, const uint8_t (&rgb)[3]) {
  for (int y = std::max(0, y0); y < std::min(img.height, y1); ++y) {
    for (int x = std::max(0, x0); x < std::min(img.width, x1); ++x)
      std::copy(rgb, rgb + 3, &img.rgb[(static_cast<size_t>(y) * img.width + x) * 3]);
  }
}

// Where on the bar a count stands, from 0 at its bottom to 1 at its top.
double bar_fraction(uint64_t count, uint64_t most) {
  return most == 0 ? 0.0
                   : std::log1p(static_cast<double>(count)) / std::log1p(static_cast<double>(most));
}

}  // namespace

DensityLayout density_layout(int width, int height) {
  DensityLayout l;
  const int longer = std::max(width, height);
  l.cell_pixels = (512 + longer - 1) / longer;
  l.map_width = width * l.cell_pixels;
  l.map_height = height * l.cell_pixels;
  l.bar_left = l.map_width + kGap;
  l.bar_width = kBarWidth;
  l.bar_top = kGap + kTextHeight + kGap;  // under the bar's title
  l.bar_bottom = std::max(l.map_height, l.bar_top + kMinBarHeight) - kGap;
  l.label_left = l.bar_left + kBarWidth + kTickLength + 3;
  const int title = text_width(kBarTitle, kLabelScale);
  l.width = std::max(l.label_left + text_width(std::string(kLabelChars, '0'), kLabelScale),
                     l.bar_left + title) +
            kGap;
  l.length_bar_top = std::max(l.map_height, l.bar_bottom + kGap) + kGap;
  l.height = l.length_bar_top + kTextHeight + kGap;
  return l;
}

std::vector<DensityTick> density_ticks(uint64_t most, const DensityLayout& layout) {
  const auto row = [&](uint64_t c) {
    const double span = layout.bar_bottom - layout.bar_top;
    return layout.bar_bottom - static_cast<int>(std::lround(bar_fraction(c, most) * span));
  };
  std::vector<DensityTick> out = {{most, count_label(most), row(most)}};
  if (most == 0) return out;
  std::vector<uint64_t> decades;
  for (uint64_t c = 1; c < most; c *= 10) {
    decades.push_back(c);
    if (c > most / 10) break;
  }
  // Labels a text's height apart at least, between the largest and 0.
  const int apart = kTextHeight + 2;
  for (auto c = decades.rbegin(); c != decades.rend(); ++c) {
    const int r = row(*c);
    if (r - out.back().row >= apart && row(0) - r >= apart) out.push_back({*c, count_label(*c), r});
  }
  out.push_back({0, "0", row(0)});
  return out;
}

std::pair<double, std::string> length_bar(double cell_m, const DensityLayout& layout) {
  const double most_m = layout.map_width / 3.0 / layout.cell_pixels * cell_m;
  const double power = std::pow(10.0, std::floor(std::log10(most_m)));
  double length = power;
  for (const double m : {2.0, 5.0}) {
    if (m * power <= most_m) length = m * power;
  }
  return {length, short_number(length) + " m"};
}

Image density_image(const std::vector<uint32_t>& counts, int width, int height, double cell_m) {
  const uint32_t most = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  const DensityLayout l = density_layout(width, height);
  Image img{l.width, l.height,
            std::vector<uint8_t>(static_cast<size_t>(l.width) * l.height * 3, 255)};
  for (int py = 0; py < l.map_height; ++py) {
    for (int px = 0; px < l.map_width; ++px) {
      const uint32_t c =
          counts[static_cast<size_t>(height - 1 - py / l.cell_pixels) * width + px / l.cell_pixels];
      heat_colour(bar_fraction(c, most), &img.rgb[(static_cast<size_t>(py) * img.width + px) * 3]);
    }
  }
  // The colour bar: each row the colour of its fraction of log(1 + largest), ticks and labels.
  for (int y = l.bar_top; y <= l.bar_bottom; ++y) {
    uint8_t rgb[3];
    heat_colour(static_cast<double>(l.bar_bottom - y) / (l.bar_bottom - l.bar_top), rgb);
    fill(img, l.bar_left, y, l.bar_left + l.bar_width, y + 1, rgb);
  }
  draw_text(img, l.bar_left, kGap, kBarTitle, kLabelScale, kInk);
  for (const DensityTick& t : density_ticks(most, l)) {
    fill(img, l.bar_left + l.bar_width, t.row, l.bar_left + l.bar_width + kTickLength, t.row + 1,
         kInk);
    draw_text(img, l.label_left, t.row - kTextHeight / 2, t.label, kLabelScale, kInk);
  }
  // The length bar, with end marks, and its length.
  const auto [length_m, label] = length_bar(cell_m, l);
  const int x0 = kGap / 2, y = l.length_bar_top + kTextHeight / 2;
  const int x1 = x0 + static_cast<int>(std::lround(length_m / cell_m * l.cell_pixels));
  fill(img, x0, y - 1, x1, y + 2, kInk);
  fill(img, x0, y - 5, x0 + 2, y + 6, kInk);
  fill(img, x1 - 2, y - 5, x1, y + 6, kInk);
  draw_text(img, x1 + kGap, l.length_bar_top, label, kLabelScale, kInk);
  return img;
}

}  // namespace sb
