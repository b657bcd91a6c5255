// Animated GIF output of pictures (toy's --frames).
#pragma once

#include <string>

#include "core/image.hpp"

struct GifFileType;

namespace sb {

// Frames are encoded as they come, so that only the compressed animation is held; it loops
// forever. Colours are mapped to a fixed 6x6x6 cube: pictures use few, and a fixed palette needs
// no pass over all frames first. Failures throw std::runtime_error.
class GifAnimation {
 public:
  explicit GifAnimation(int delay_centiseconds) : delay_cs_(delay_centiseconds) {}
  ~GifAnimation();
  GifAnimation(const GifAnimation&) = delete;
  GifAnimation& operator=(const GifAnimation&) = delete;

  // Every frame must have the first one's size.
  void add(const Image& frame);
  int frames() const { return frames_; }
  // Ends the animation and writes it to `path` atomically; nothing can be added after.
  void write(const std::string& path);

 private:
  void open(int width, int height);

  int delay_cs_;
  int frames_ = 0;
  int width_ = 0, height_ = 0;
  GifFileType* gif_ = nullptr;
  std::string bytes_;
};

}  // namespace sb
