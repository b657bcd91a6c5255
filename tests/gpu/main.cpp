// The GPU test program: GoogleTest, then a short table of what was checked on which device.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/device.hpp"
#include "harness/io/text_table.hpp"
#include "tests/support/summary.hpp"

namespace sb::testing_support {

std::vector<SummaryRow>& summary() {
  static std::vector<SummaryRow> rows;
  return rows;
}

void print_summary() {
  const auto device = describe_device();
  fmt::print("\ndevice: {}\n",
             device ? fmt::format("{} ({} SMs, compute {}.{})", device->name, device->sm_count,
                                  device->compute_major, device->compute_minor)
                    : "none (GPU tests skipped)");
  TextTable table({"check", "detail", "result"});
  for (const SummaryRow& r : summary())
    table.add_row({r.check, r.detail, r.result});
  fmt::print("{}", table.str());
}

}  // namespace sb::testing_support

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  if (!testing::GTEST_FLAG(list_tests)) sb::testing_support::print_summary();
  return rc;
}
