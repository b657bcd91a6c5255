#include "core/data_file.hpp"

#include <filesystem>
#include <system_error>

namespace sb {
namespace {

std::vector<std::string>& data_roots() {
  static std::vector<std::string> roots;
  return roots;
}

}  // namespace

void add_data_root(const std::string& root) {
  data_roots().push_back(root);
}

std::vector<std::string> data_candidates(const std::string& relative) {
  namespace fs = std::filesystem;
  std::vector<std::string> candidates;
  for (const std::string& root : data_roots())
    candidates.push_back((fs::path(root) / relative).string());
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    candidates.push_back((exe.parent_path() / ".." / relative).string());
    candidates.push_back((exe.parent_path() / ".." / ".." / relative).string());
  }
  candidates.push_back((fs::path(SB_SOURCE_DIR) / relative).string());
  return candidates;
}

}  // namespace sb
