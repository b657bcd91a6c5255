// Where a sim's shipped data lives (data/ of the source tree, README "Data"): the source tree the
// binary was built from, else beside the executable's build directory (build/bin/..) or install
// prefix (bin/..).
#pragma once

#include <string>
#include <vector>

namespace sb {

// The places `relative` (e.g. "data/lxcat-siglo.txt") may be, in the order they are tried.
std::vector<std::string> data_candidates(const std::string& relative);

}  // namespace sb
