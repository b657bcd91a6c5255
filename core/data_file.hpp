// Where a sim's shipped data lives (data/ of the source tree, README "Data"): the data a project's
// program was built against (add_data_root), else beside the executable's install prefix (bin/..)
// or build directory (build/bin/..), else the source tree the binary was built from.
#pragma once

#include <string>
#include <vector>

namespace sb {

// The places `relative` (e.g. "data/lxcat-siglo.txt") may be, in the order they are tried.
std::vector<std::string> data_candidates(const std::string& relative);

// Tries `root`/`relative` before the others (`root` holds data/): a project built against an
// installed schedbench reads the installed prefix's data (cmake/project_runs.cpp calls it with
// the prefix before main runs).
void add_data_root(const std::string& root);

}  // namespace sb
