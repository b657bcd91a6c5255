// The short table a test program prints last, so that a plain run of it ends in a readable
// summary (docs/design.md §7). Tests add rows; the program's main prints the table after all tests.
#pragma once

#include <string>
#include <vector>

namespace sb::testing_support {

struct SummaryRow {
  std::string check;
  std::string detail;
  std::string result;
};

std::vector<SummaryRow>& summary();

// Prints the device line and the rows; called once, after RUN_ALL_TESTS.
void print_summary();

}  // namespace sb::testing_support
