#include "harness/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

namespace sb {
namespace {

// Beside `path`, so that the rename stays on one file system; unique within this process too.
std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> count{0};
  return path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(count++);
}

void make_parent_folders(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!parent.empty()) std::filesystem::create_directories(parent, error);
  if (error) {
    throw WriteError("cannot make the folder " + parent.string() + " for " + path + ": " +
                     error.message());
  }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text, mode_t mode) {
  make_parent_folders(path);
  const std::string tmp = temporary_name(path);
  bool created = false;
  const auto fail = [&](const std::string& why) {
    if (created) unlink(tmp.c_str());
    throw WriteError("cannot write " + path + ": " + why);
  };
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) fail(std::strerror(errno));
  created = true;
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      fail(std::strerror(error));
    }
    done += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0) {
    const int error = errno;
    close(fd);
    fail(std::strerror(error));
  }
  if (close(fd) != 0) fail(std::strerror(errno));
  // The target was checked before the work started; it may have changed since. rename() would
  // replace a device node or a link as readily as a file.
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    fail("it is no longer a regular file; left as it is");
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) fail(std::strerror(errno));
}

void fail_writes_past_size_limit() {
  std::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace sb
