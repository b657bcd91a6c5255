// A 5 x 7 bitmap font of the few characters the pictures' labels need (digits, '.', '-', 'e',
// the letters of "per cell" and "m"), drawn into an Image: the project links no font library.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/image.hpp"

namespace sb {

inline constexpr int kGlyphWidth = 5, kGlyphHeight = 7;

struct Glyph {
  char c;
  std::array<uint8_t, kGlyphHeight> rows;  // top to bottom; bit 4 the left column
};

inline constexpr std::array<Glyph, 19> kGlyphs = {{
    {'0', {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}},
    {'1', {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e}},
    {'2', {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}},
    {'3', {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e}},
    {'4', {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}},
    {'5', {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e}},
    {'6', {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}},
    {'7', {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}},
    {'9', {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c}},
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c}},
    {'-', {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00}},
    {'e', {0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e}},
    {'m', {0x00, 0x00, 0x1a, 0x15, 0x15, 0x11, 0x11}},
    {'p', {0x00, 0x00, 0x1e, 0x11, 0x1e, 0x10, 0x10}},
    {'r', {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10}},
    {'c', {0x00, 0x00, 0x0e, 0x10, 0x10, 0x11, 0x0e}},
    {'l', {0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}},
    {' ', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
}};

// The pixels `text` takes across, each font pixel `scale` pixels square, a column between
// characters.
inline int text_width(const std::string& text, int scale) {
  return text.empty() ? 0 : static_cast<int>(text.size()) * (kGlyphWidth + 1) * scale - scale;
}

// Draws `text` with its top left corner at (x, y) in `rgb`; pixels outside the image are left
// out. A character the font lacks is a logic_error: labels are made by the code, not the user.
inline void draw_text(Image& img, int x, int y, const std::string& text, int scale,
                      const uint8_t (&rgb)[3]) {
  for (const char c : text) {
    const Glyph* g = nullptr;
    for (const Glyph& each : kGlyphs) {
      if (each.c == c) g = &each;
    }
    if (g == nullptr) throw std::logic_error(std::string("bitmap font: no glyph for '") + c + "'");
    for (int row = 0; row < kGlyphHeight * scale; ++row) {
      for (int col = 0; col < kGlyphWidth * scale; ++col) {
        const int px = x + col, py = y + row;
        if ((g->rows[row / scale] >> (kGlyphWidth - 1 - col / scale) & 1) == 0 || px < 0 ||
            py < 0 || px >= img.width || py >= img.height) {
          continue;
        }
        uint8_t* out = &img.rgb[(static_cast<size_t>(py) * img.width + px) * 3];
        out[0] = rgb[0];
        out[1] = rgb[1];
        out[2] = rgb[2];
      }
    }
    x += (kGlyphWidth + 1) * scale;
  }
}

}  // namespace sb
