// Split and remove chances per energy level: read from a file, the seed's synthetic table
// (§3.4.5), or a constant. Files have one line per level, "split remove" in percent, kLevels
// lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sb::pic {

struct CrossSections {
  std::vector<double> split;   // percent per level
  std::vector<double> remove;  // percent per level
};

// chance(i) = (sin(i^2.6 / 5e7) + 1.01) * i^0.1 percent for split and for remove; 0 at level 0.
CrossSections synthetic_cross_sections();

// split = remove = chance / 2 at every level (seed §5.3.1: "collision chance" c).
CrossSections constant_cross_sections(double chance);

// Throws UsageError naming the file and line for a missing file, a line that is not two decimal
// numbers, a value below 0 or above 100, a split + remove above 100, or a count of lines other
// than kLevels; naming the file where it is not a regular file (a directory, a device). A UTF-8
// byte-order mark is skipped.
CrossSections read_cross_sections(const std::string& path);

// The file text of `cs`, which read_cross_sections reads back exactly.
std::string format_cross_sections(const CrossSections& cs);

}  // namespace sb::pic
