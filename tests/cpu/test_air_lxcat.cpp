// The LXCat reader: the project's file, and one bad file per fault with the message it gets.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <sstream>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "sims/air/lxcat.hpp"

namespace sb::air {
namespace {

constexpr const char* kGood =
    "Free text before the first block, ignored.\n"
    "SIGLO\n"
    "\n"
    "ELASTIC\n"
    "Xx\n"
    " 1.0e-4 / mass ratio\n"
    "COMMENT: a comment\n"
    "-----\n"
    " 0 1e-20\n"
    " 10 2e-20\n"
    "-----\n"
    "\n"
    "EXCITATION\n"
    "Xx -> Xx*\n"
    " 2.5 / threshold\n"
    "-----\n"
    " 2.5 0\n"
    " 20 1e-21\n"
    "-----\n"
    "ATTACHMENT\n"
    "Xx\n"
    "TIMES_N: CM3\n"
    "-----\n"
    " 0 0\n"
    " 1 1e-40\n"
    "-----\n"
    "COMMENT\n"
    "Yy\n"
    "free text\n"
    "-----\n"
    "MOMENTUM\n"
    "Yy\n"
    " 2e-5\n"
    "-----\n"
    " 0 3e-20\n"
    " 100 4e-20\n"
    "-----\n"
    "+-+-+-+-+-+\n"
    "Trailing text, ignored.\n";

TEST(Lxcat, ReadsEveryBlockOfAGoodFile) {
  std::istringstream in(kGood);
  const std::vector<Process> ps = parse_lxcat(in, "good.txt");
  ASSERT_EQ(ps.size(), 4u);
  EXPECT_EQ(ps[0].kind, ProcessKind::kElastic);
  EXPECT_EQ(ps[0].species, "Xx");
  EXPECT_DOUBLE_EQ(ps[0].parameter, 1e-4);
  EXPECT_EQ(ps[0].energy.size(), 2u);
  EXPECT_EQ(ps[1].kind, ProcessKind::kExcitation);
  EXPECT_EQ(ps[1].product, "Xx*");
  EXPECT_DOUBLE_EQ(ps[1].parameter, 2.5);
  EXPECT_EQ(ps[2].kind, ProcessKind::kAttachment);
  EXPECT_TRUE(ps[2].times_n);
  EXPECT_FALSE(ps[0].times_n);
  EXPECT_EQ(ps[3].kind, ProcessKind::kEffective);
  EXPECT_EQ(ps[3].species, "Yy");
  EXPECT_DOUBLE_EQ(ps[3].cross_section[1], 4e-20);
}

TEST(Lxcat, ReadsTheProjectsFile) {
  const std::vector<Process> ps =
      read_lxcat(std::string(SCHEDBENCH_SOURCE_DIR) + "/data/lxcat-siglo.txt");
  int n2 = 0, o2 = 0, ar = 0;
  for (const Process& p : ps) {
    n2 += p.species == "N2";
    o2 += p.species == "O2";
    ar += p.species == "Ar";
  }
  EXPECT_EQ(n2, 25);  // the counts the file's header gives
  EXPECT_EQ(o2, 17);
  EXPECT_EQ(ar, 3);
}

struct BadFile {
  const char* name;
  const char* text;
  const char* message;  // the whole one-line message
};

void PrintTo(const BadFile& b, std::ostream* os) {
  *os << b.name;
}

const BadFile kBadFiles[] = {
    {"unknown_keyword", "ELASTIC\nX\n1e-4\n-----\n0 1\n1 1\n-----\nROTATION\nX\n",
     "bad.txt:8: unknown keyword 'ROTATION' where a keyword is expected; accepted: ELASTIC, "
     "EFFECTIVE, MOMENTUM, EXCITATION, IONIZATION, ATTACHMENT, or COMMENT"},
    {"missing_parameter", "EXCITATION\nX\n-----\n1 0\n2 1e-20\n-----\n",
     "bad.txt:3: missing parameter line: '-----' is not a number; accepted: the threshold energy "
     "in eV"},
    {"negative_parameter", "ELASTIC\nX\n-1e-4\n-----\n0 1\n1 1\n-----\n",
     "bad.txt:3: parameter -1e-4 is negative or not finite; accepted: the mass ratio (>= 0)"},
    {"one_point", "ELASTIC\nX\n1e-4\n-----\n0 1e-20\n-----\n",
     "bad.txt:6: a table of 1 point(s); accepted: at least 2"},
    {"energies_not_increasing", "ELASTIC\nX\n1e-4\n-----\n0 1e-20\n2 1e-20\n2 1e-20\n-----\n",
     "bad.txt:7: energy 2 eV does not increase on 2 eV; accepted: increasing energies"},
    {"negative_cross_section", "ELASTIC\nX\n1e-4\n-----\n0 1e-20\n2 -1e-20\n-----\n",
     "bad.txt:6: '2 -1e-20': values must be finite and not negative"},
    // Numbers are decimal as everywhere (core/decimal.hpp): no nan, hex, '+' or trailing comma.
    {"not_finite", "ELASTIC\nX\n1e-4\n-----\n0 1e-20\n2 nan\n-----\n",
     "bad.txt:6: '2 nan' is not two numbers (energy in eV, cross section in m^2)"},
    {"hex_number", "ELASTIC\nX\n1e-4\n-----\n0 1e-20\n0x2 1e-20\n-----\n",
     "bad.txt:6: '0x2 1e-20' is not two numbers (energy in eV, cross section in m^2)"},
    {"plus_sign", "ELASTIC\nX\n1e-4\n-----\n0 1e-20\n+2 1e-20\n-----\n",
     "bad.txt:6: '+2 1e-20' is not two numbers (energy in eV, cross section in m^2)"},
    {"trailing_comma", "ELASTIC\nX\n1e-4\n-----\n0 1e-20\n2 1e-20,\n-----\n",
     "bad.txt:6: '2 1e-20,' is not two numbers (energy in eV, cross section in m^2)"},
    {"not_two_numbers", "ELASTIC\nX\n1e-4\n-----\n0 1e-20\n2\n-----\n",
     "bad.txt:6: '2' is not two numbers (energy in eV, cross section in m^2)"},
    {"table_never_ends", "ELASTIC\nX\n1e-4\n-----\n0 1e-20\n2 1e-20\n",
     "bad.txt:4: a table that never ends (no closing line of dashes before the end of file)"},
    {"no_table", "ATTACHMENT\nX\ncomment\n",
     "bad.txt:1: a block without a table (no line of dashes)"},
    {"no_species", "ELASTIC\n", "bad.txt:2: the file ends before the block's species line"},
};

class LxcatBadFile : public testing::TestWithParam<BadFile> {};

TEST_P(LxcatBadFile, IsAUsageErrorNamingFileLineAndFault) {
  std::istringstream in(GetParam().text);
  try {
    parse_lxcat(in, "bad.txt");
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), GetParam().message);
  }
}

INSTANTIATE_TEST_SUITE_P(Faults, LxcatBadFile, testing::ValuesIn(kBadFiles),
                         [](const testing::TestParamInfo<BadFile>& i) { return i.param.name; });

TEST(Lxcat, MissingFileIsAUsageError) {
  EXPECT_THROW(read_lxcat("/nonexistent/cross-sections.txt"), UsageError);
}

// Only a regular file is read: a directory, a device or a FIFO is named as such at once (never
// read forever, waited on or blamed on another option).
TEST(Lxcat, WhatIsNotARegularFileIsNamedAtOnce) {
  const std::string fifo = testing::TempDir() + "lxcat_fifo";
  ::unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::pair<std::string, const char*> cases[] = {
      {testing::TempDir(), "is a directory"}, {"/dev/zero", "is a device"}, {fifo, "is a FIFO"}};
  for (const auto& [path, kind] : cases) {
    try {
      read_lxcat(path);
      FAIL() << path;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("the cross-section file ") + kind),
                std::string::npos)
          << e.what();
    }
  }
  ::unlink(fifo.c_str());
}

}  // namespace
}  // namespace sb::air
