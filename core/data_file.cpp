#include "core/data_file.hpp"

#include <filesystem>
#include <system_error>

namespace sb {

std::vector<std::string> data_candidates(const std::string& relative) {
  namespace fs = std::filesystem;
  std::vector<std::string> candidates = {(fs::path(SB_SOURCE_DIR) / relative).string()};
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    candidates.push_back((exe.parent_path() / ".." / ".." / relative).string());
    candidates.push_back((exe.parent_path() / ".." / relative).string());
  }
  return candidates;
}

}  // namespace sb
