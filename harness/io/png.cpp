#include "harness/io/png.hpp"

#include <stdexcept>

#include "harness/io/atomic_file.hpp"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace sb {

void write_png(const std::string& path, const Image& img) {
  std::string bytes;
  const auto append = [](void* out, void* data, int size) {
    static_cast<std::string*>(out)->append(static_cast<const char*>(data),
                                           static_cast<size_t>(size));
  };
  if (stbi_write_png_to_func(append, &bytes, img.width, img.height, 3, img.rgb.data(),
                             img.width * 3) == 0) {
    throw std::runtime_error("cannot encode " + path + " as PNG");
  }
  write_file_atomically(path, bytes);
}

}  // namespace sb
