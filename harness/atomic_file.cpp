#include "harness/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace sb {

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  const auto fail = [&](const char* what) {
    const std::string msg = std::string(what) + " " + path + ": " + std::strerror(errno);
    unlink(tmp.c_str());
    throw std::runtime_error(msg);
  };
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create");
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      close(fd);
      fail("cannot write");
    }
    done += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0) {
    close(fd);
    fail("cannot flush");
  }
  if (close(fd) != 0) fail("cannot close");
  if (rename(tmp.c_str(), path.c_str()) != 0) fail("cannot rename into");
}

}  // namespace sb
