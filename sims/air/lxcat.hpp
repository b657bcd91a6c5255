// Cross sections in the LXCat text format (the format's description heads
// data/lxcat-siglo.txt): blocks of a keyword line, a species line, a parameter line (absent for
// attachment), comment lines, and a two-column table (eV, m^2) between lines of dashes. Several
// species and databases may share a file; text before the first block, and between a table and
// a database separator (a line of + - x), is ignored.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace sb::air {

// MOMENTUM (the keyword the SIGLO file uses) is read as kEffective.
enum class ProcessKind { kElastic, kEffective, kExcitation, kIonization, kAttachment };

const char* kind_name(ProcessKind k);

struct Process {
  ProcessKind kind;
  std::string species;  // the target, before any "->"
  std::string product;  // after "->" (or "<->"), if given
  double parameter;     // mass ratio (elastic, effective) or threshold in eV; 0 for attachment
  bool times_n;         // comment "TIMES_N: CM3": to be multiplied by the gas density in cm^-3
  std::vector<double> energy;         // eV, increasing
  std::vector<double> cross_section;  // m^2
  size_t line;                        // of the keyword, for messages
};

// Throws UsageError "FILE:LINE: fault; accepted: ..." for an unreadable file, an unknown keyword
// where a keyword is expected, a missing parameter line, a table line that is not two numbers,
// negative or non-finite values, energies not increasing, fewer than 2 points, a table that
// never ends.
std::vector<Process> read_lxcat(const std::string& path);

// The same from a stream; `name` stands for the file in messages.
std::vector<Process> parse_lxcat(std::istream& in, const std::string& name);

}  // namespace sb::air
