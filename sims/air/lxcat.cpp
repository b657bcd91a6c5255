#include "sims/air/lxcat.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <sstream>

#include "core/decimal.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"

namespace sb::air {
namespace {

// Far above LXCat's largest downloads (a few MB), far below what reading would exhaust.
constexpr size_t kMostLxcatBytes = size_t{64} << 20;

constexpr const char* kKeywords =
    "ELASTIC, EFFECTIVE, MOMENTUM, EXCITATION, IONIZATION, ATTACHMENT, or COMMENT";

std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

std::optional<ProcessKind> keyword(const std::string& t) {
  if (t == "ELASTIC") return ProcessKind::kElastic;
  if (t == "EFFECTIVE" || t == "MOMENTUM") return ProcessKind::kEffective;
  if (t == "EXCITATION") return ProcessKind::kExcitation;
  if (t == "IONIZATION") return ProcessKind::kIonization;
  if (t == "ATTACHMENT") return ProcessKind::kAttachment;
  return std::nullopt;
}

bool is_dashes(const std::string& t) {
  return t.size() >= 5 && t.find_first_not_of('-') == std::string::npos;
}

// A line between databases, such as LXCat's "xxxxx" or SIGLO's "+-+-+".
bool is_separator(const std::string& t) {
  return t.size() >= 5 && !is_dashes(t) && t.find_first_not_of("+-x") == std::string::npos;
}

// The numbers at the start of `t` (at most `most`), each a whitespace-separated word in the
// decimal form every input uses (core/decimal.hpp), and whether anything else follows.
std::vector<double> leading_numbers(const std::string& t, size_t most, bool& rest) {
  std::vector<double> out;
  std::istringstream words(t);
  std::string word;
  rest = false;
  while (words >> word) {
    const std::optional<double> v = out.size() < most ? parse_decimal(word) : std::nullopt;
    if (!v) {
      rest = true;
      break;
    }
    out.push_back(*v);
  }
  return out;
}

class Reader {
 public:
  Reader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  std::vector<Process> read() {
    std::vector<Process> out;
    bool expect_keyword = false;  // right after a table: a keyword, COMMENT, or a separator
    std::string text;
    while (next(text)) {
      const std::string t = trimmed(text);
      if (t.empty()) continue;
      if (const auto kind = keyword(t)) {
        out.push_back(block(*kind));
        expect_keyword = true;
      } else if (expect_keyword && t == "COMMENT") {
        skip_comment_block();
      } else if (expect_keyword && is_separator(t)) {
        expect_keyword = false;
      } else if (expect_keyword) {
        fail(line_, fmt::format("unknown keyword '{}' where a keyword is expected; accepted: {}", t,
                                kKeywords));
      }
    }
    return out;
  }

 private:
  bool next(std::string& text) {
    if (!std::getline(in_, text)) return false;
    ++line_;
    return true;
  }

  [[noreturn]] void fail(size_t line, const std::string& what) const {
    throw UsageError(fmt::format("{}:{}: {}", name_, line, what));
  }

  std::string need_line(const char* what) {
    std::string text;
    if (!next(text)) fail(line_ + 1, fmt::format("the file ends before the block's {}", what));
    return trimmed(text);
  }

  // A species comment block ("COMMENT", species, free text) through its line of dashes.
  void skip_comment_block() {
    const size_t start = line_;
    std::string text;
    while (next(text)) {
      if (is_dashes(trimmed(text))) return;
    }
    fail(start, "a COMMENT block that never ends (no line of dashes)");
  }

  Process block(ProcessKind kind) {
    Process p{kind, "", "", 0.0, false, {}, {}, line_};
    const std::string species = need_line("species line");
    const size_t arrow = species.find("->");
    const size_t cut = arrow == std::string::npos               ? species.size()
                       : arrow > 0 && species[arrow - 1] == '<' ? arrow - 1
                                                                : arrow;
    p.species = trimmed(species.substr(0, cut));
    if (arrow != std::string::npos) p.product = trimmed(species.substr(arrow + 2));
    if (p.species.empty()) fail(line_, "an empty species line; accepted: a species name");
    if (kind != ProcessKind::kAttachment) parameter(p);
    table(p);
    return p;
  }

  void parameter(Process& p) {
    const char* what = p.kind == ProcessKind::kElastic || p.kind == ProcessKind::kEffective
                           ? "mass ratio"
                           : "threshold energy in eV";
    const std::string t = need_line("parameter line");
    bool rest = false;
    const std::vector<double> v = leading_numbers(t, 1, rest);
    if (v.empty()) {
      fail(line_,
           fmt::format("missing parameter line: '{}' is not a number; accepted: the {}", t, what));
    }
    if (!std::isfinite(v[0]) || v[0] < 0) {
      fail(line_,
           fmt::format("parameter {} is negative or not finite; accepted: the {} (>= 0)", t, what));
    }
    p.parameter = v[0];
  }

  void table(Process& p) {
    std::string text;
    for (;;) {  // comment lines up to the first line of dashes
      if (!next(text)) fail(p.line, "a block without a table (no line of dashes)");
      const std::string t = trimmed(text);
      if (is_dashes(t)) break;
      if (t.rfind("TIMES_N:", 0) == 0) p.times_n = true;
    }
    const size_t start = line_;
    for (;;) {
      if (!next(text)) {
        fail(start, "a table that never ends (no closing line of dashes before the end of file)");
      }
      const std::string t = trimmed(text);
      if (is_dashes(t)) break;
      row(p, t);
    }
    if (p.energy.size() < 2) {
      fail(line_, fmt::format("a table of {} point(s); accepted: at least 2", p.energy.size()));
    }
  }

  void row(Process& p, const std::string& t) {
    bool rest = false;
    const std::vector<double> v = leading_numbers(t, 2, rest);
    if (v.size() != 2 || rest) {
      fail(line_, fmt::format("'{}' is not two numbers (energy in eV, cross section in m^2)", t));
    }
    for (const double x : v) {
      if (!std::isfinite(x) || x < 0) {
        fail(line_, fmt::format("'{}': values must be finite and not negative", t));
      }
    }
    if (!p.energy.empty() && !(v[0] > p.energy.back())) {
      fail(line_, fmt::format("energy {} eV does not increase on {} eV; accepted: increasing "
                              "energies",
                              v[0], p.energy.back()));
    }
    p.energy.push_back(v[0]);
    p.cross_section.push_back(v[1]);
  }

  std::istream& in_;
  std::string name_;
  size_t line_ = 0;
};

}  // namespace

const char* kind_name(ProcessKind k) {
  switch (k) {
    case ProcessKind::kElastic:
      return "ELASTIC";
    case ProcessKind::kEffective:
      return "EFFECTIVE";
    case ProcessKind::kExcitation:
      return "EXCITATION";
    case ProcessKind::kIonization:
      return "IONIZATION";
    case ProcessKind::kAttachment:
      return "ATTACHMENT";
  }
  return "?";
}

std::vector<Process> parse_lxcat(std::istream& in, const std::string& name) {
  return Reader(in, name).read();
}

std::vector<Process> read_lxcat(const std::string& path) {
  std::istringstream in(read_input_file(path, "cross-section file", kMostLxcatBytes));
  return parse_lxcat(in, path);
}

}  // namespace sb::air
