#include "core/input_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.hpp"
#include "core/printable.hpp"

namespace sb {
namespace {

// What a path names that is not a regular file, for the message.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Closes the descriptor on every path out of read_input_file.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace

std::string read_input_file(const std::string& path, const std::string& what, size_t max_bytes) {
  const std::string shown = printable(path);
  if (path.empty()) throw UsageError(fmt::format("the {} is named by an empty string", what));
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked before any read.
  const Descriptor file{open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    throw UsageError(fmt::format("{}: cannot read the {} ({})", shown, what, std::strerror(errno)));
  }
  struct stat st {};
  if (fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    throw UsageError(fmt::format("{}: the {} is {}; accepted: a regular file", shown, what,
                                 kind_of(st.st_mode)));
  }
  if (static_cast<size_t>(st.st_size) > max_bytes) {
    throw UsageError(fmt::format("{}: the {} has {} bytes; accepted: at most {}", shown, what,
                                 st.st_size, max_bytes));
  }
  std::string text(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = read(file.fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw UsageError(
          fmt::format("{}: cannot read the {} ({})", shown, what, std::strerror(errno)));
    }
    if (n == 0) break;  // the file shrank while read
    done += static_cast<size_t>(n);
  }
  text.resize(done);
  // A UTF-8 byte-order mark, which editors may add, is not part of any format we read.
  constexpr const char* kByteOrderMark = "\xef\xbb\xbf";
  if (text.rfind(kByteOrderMark, 0) == 0) text.erase(0, 3);
  return text;
}

}  // namespace sb
