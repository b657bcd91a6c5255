// The ways the GPU drivers remove dead particles (schedulers/device/compaction.cuh), by the names
// --compaction accepts.
#pragma once

#include <string>
#include <vector>

namespace sb {

inline const std::vector<std::string>& compaction_variants() {
  static const std::vector<std::string> names = {"simple", "block", "warp", "cub", "inplace"};
  return names;
}

}  // namespace sb
