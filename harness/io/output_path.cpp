#include "harness/io/output_path.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"

namespace sb {
namespace {

namespace fs = std::filesystem;

const char* kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "of an unknown kind";
}

// "frames/" and "frames" are one folder; lstat of "link/" would follow the link.
std::string without_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/')
    path.pop_back();
  return path;
}

// The nearest existing folder above `path` must be a directory this process may write in: the
// folders between are made when the first file is written.
std::string parent_problem(const std::string& path) {
  fs::path dir = fs::path(path).parent_path();
  struct stat st {};
  for (;;) {
    if (dir.empty()) dir = ".";
    if (stat(dir.c_str(), &st) == 0) break;
    if (errno != ENOENT || dir == dir.parent_path()) {
      return fmt::format("'{}': '{}': {}", path, dir.string(), std::strerror(errno));
    }
    dir = dir.parent_path();
  }
  if (!S_ISDIR(st.st_mode)) return fmt::format("'{}': '{}' is not a directory", path, dir.string());
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    return fmt::format("'{}': cannot write in '{}' ({})", path, dir.string(), std::strerror(errno));
  }
  return "";
}

// What lstat says of `path`, or "" if it could not look (the parent check says why).
std::string existing_problem(const std::string& path, bool want_dir, const char* accepted) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    const int error = errno;
    std::string problem = parent_problem(path);
    if (problem.empty() && error != ENOENT)
      problem = fmt::format("'{}': {}", path, std::strerror(error));
    return problem;
  }
  if (want_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
    return fmt::format("'{}' is {}; accepted: {}", path, kind_of(st.st_mode), accepted);
  }
  const std::string writable_dir = want_dir ? path : fs::path(path).parent_path().string();
  if (access(writable_dir.empty() ? "." : writable_dir.c_str(), W_OK | X_OK) != 0) {
    return fmt::format("'{}': cannot write in '{}' ({})", path,
                       writable_dir.empty() ? "." : writable_dir, std::strerror(errno));
  }
  return "";
}

CLI::Validator validator(std::string (*problem)(const std::string&), const char* name) {
  return CLI::Validator([problem](std::string& value) { return problem(value); }, "", name);
}

}  // namespace

std::string output_file_problem(const std::string& path) {
  if (path.empty()) return "'' is an empty name; accepted: a file name";
  if (path.back() == '/') return fmt::format("'{}' ends in '/'; accepted: a file name", path);
  return existing_problem(path, false, "a regular file or a new name");
}

std::string output_dir_problem(const std::string& path) {
  if (path.empty()) return "'' is an empty name; accepted: a folder name";
  return existing_problem(without_trailing_slashes(path), true, "a directory or a new name");
}

void check_output_file(const std::string& option, const std::string& path, bool refuse_existing) {
  const std::string problem = output_file_problem(path);
  if (!problem.empty()) throw UsageError(option + ": " + problem);
  struct stat st {};
  if (refuse_existing && lstat(path.c_str(), &st) == 0) {
    throw UsageError(fmt::format(
        "{}: '{}' exists; accepted: --overwrite to replace it, or a new name", option, path));
  }
}

void check_output_dir(const std::string& option, const std::string& path) {
  const std::string problem = output_dir_problem(path);
  if (!problem.empty()) throw UsageError(option + ": " + problem);
}

CLI::Validator output_file() {
  return validator(output_file_problem, "OUTPUT_FILE");
}

CLI::Validator output_dir() {
  return validator(output_dir_problem, "OUTPUT_DIR");
}

}  // namespace sb
