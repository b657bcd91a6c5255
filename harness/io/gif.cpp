#include "harness/io/gif.hpp"

#include <gif_lib.h>

#include <stdexcept>
#include <vector>

#include "harness/io/atomic_file.hpp"

namespace sb {
namespace {

constexpr int kLevels = 6;  // per channel: 6^3 = 216 colours of the 256 a GIF palette holds

int level(uint8_t v) {
  return (v * (kLevels - 1) + 127) / 255;
}

GifPixelType cube_index(const uint8_t* rgb) {
  return static_cast<GifPixelType>((level(rgb[0]) * kLevels + level(rgb[1])) * kLevels +
                                   level(rgb[2]));
}

std::vector<GifColorType> cube_palette() {
  std::vector<GifColorType> colours(256, GifColorType{0, 0, 0});
  const auto value = [](int l) { return static_cast<GifByteType>(l * 255 / (kLevels - 1)); };
  for (int r = 0; r < kLevels; ++r) {
    for (int g = 0; g < kLevels; ++g) {
      for (int b = 0; b < kLevels; ++b) {
        colours[(r * kLevels + g) * kLevels + b] = {value(r), value(g), value(b)};
      }
    }
  }
  return colours;
}

int append(GifFileType* gif, const GifByteType* data, int size) {
  static_cast<std::string*>(gif->UserData)->append(reinterpret_cast<const char*>(data), size);
  return size;
}

[[noreturn]] void fail(const std::string& what, int code) {
  const char* reason = GifErrorString(code);
  throw std::runtime_error("GIF encoder: " + what + ": " +
                           (reason != nullptr ? reason : "error " + std::to_string(code)));
}

void check(int status, GifFileType* gif, const char* what) {
  if (status != GIF_OK) fail(what, gif->Error);
}

// The NETSCAPE2.0 application extension with a loop count of 0: browsers and viewers repeat.
void put_loop_forever(GifFileType* gif) {
  const GifByteType loop[] = {1, 0, 0};
  check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), gif, "loop extension");
  check(EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0"), gif, "loop extension");
  check(EGifPutExtensionBlock(gif, sizeof loop, loop), gif, "loop extension");
  check(EGifPutExtensionTrailer(gif), gif, "loop extension");
}

}  // namespace

GifAnimation::~GifAnimation() {
  if (gif_ != nullptr) EGifCloseFile(gif_, nullptr);
}

void GifAnimation::open(int width, int height) {
  int error = 0;
  gif_ = EGifOpen(&bytes_, append, &error);
  if (gif_ == nullptr) fail("open", error);
  width_ = width;
  height_ = height;
  EGifSetGifVersion(gif_, true);  // delays and the loop extension are GIF89a
  std::vector<GifColorType> colours = cube_palette();
  ColorMapObject palette{static_cast<int>(colours.size()), 8, false, colours.data()};
  check(EGifPutScreenDesc(gif_, width, height, 8, 0, &palette), gif_, "screen");
  put_loop_forever(gif_);
}

void GifAnimation::add(const Image& frame) {
  if (gif_ == nullptr) open(frame.width, frame.height);
  if (frame.width != width_ || frame.height != height_) {
    throw std::runtime_error("GIF encoder: frames differ in size");
  }
  GraphicsControlBlock timing{DISPOSE_DO_NOT, false, delay_cs_, NO_TRANSPARENT_COLOR};
  GifByteType extension[4];
  const size_t length = EGifGCBToExtension(&timing, extension);
  check(EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension), gif_,
        "frame delay");
  check(EGifPutImageDesc(gif_, 0, 0, width_, height_, false, nullptr), gif_, "frame");
  std::vector<GifPixelType> pixels(frame.rgb.size() / 3);
  for (size_t i = 0; i < pixels.size(); ++i)
    pixels[i] = cube_index(&frame.rgb[3 * i]);
  check(EGifPutLine(gif_, pixels.data(), static_cast<int>(pixels.size())), gif_, "frame");
  ++frames_;
}

void GifAnimation::write(const std::string& path) {
  if (gif_ == nullptr) throw std::runtime_error("GIF encoder: " + path + " would have no frames");
  int error = 0;
  const int status = EGifCloseFile(gif_, &error);
  gif_ = nullptr;
  if (status != GIF_OK) fail("close", error);
  write_file_atomically(path, bytes_);
}

}  // namespace sb
