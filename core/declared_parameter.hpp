// A parameter that a sim or a scheduler declares itself, beside the code that reads it
// (docs/design.md §9): its key, option, meaning, plot label, the values it accepts and its
// default. A run holds the values given in RunConfig::declared_values, checked and canonical; the
// owner reads them through the declaration, which supplies the default. The harness builds its
// options, job-file checks, result JSON and the catalog (`schedbench list --json`) from these
// declarations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/run_config.hpp"

namespace sb {

enum class ValueKind {
  kWhole,   // a whole number in [whole_lo, whole_hi]
  kReal,    // a real number in [real_lo, real_hi]
  kSwitch,  // yes or no; on the command line a flag without a value
  kChoice,  // one of `choices`
  kText,    // any text but the empty one (a file name, a gas mixture)
};

// What a parameter is to a measurement, for the sweep's results and the plots
// (`schedbench list --json`).
enum class ParameterRole {
  kWorkload,     // changes what is computed
  kTuning,       // changes how fast, never the result: a scheduler is compared at its best value
  kBookkeeping,  // changes neither (capacity, the watchdog's timeout, when frames are drawn)
};

// A typed member of RunConfig that holds a parameter's value (what every run has), where the
// engines read it as a field rather than through the declaration.
using ConfigMember = std::variant<std::monostate, uint64_t RunConfig::*, uint32_t RunConfig::*>;

// The shortest decimal text that reads back as `v`.
std::string shortest_text(double v);

struct DeclaredParameter {
  std::string key;    // job-file and JSON key, e.g. "split_chance"
  std::string flag;   // command-line option, e.g. "--split-chance"
  std::string help;   // one line for --help, naming the sims and the default
  std::string label;  // axis label in figures
  ValueKind kind;
  // The default as text; none: the parameter is optional and "not given" is a value of its own
  // (null in results), which the sim reads with given().
  std::optional<std::string> fallback;
  bool required = false;  // a run of a sim that lists it must give it
  // Results record the default (false: null where not given, so that results made before the
  // parameter existed still describe the same runs).
  bool record_default = true;
  uint64_t whole_lo = 0, whole_hi = 0;
  double real_lo = 0, real_hi = 0;
  uint64_t whole_multiple = 1;  // kWhole: values are multiples of it (block sizes: of 32)
  // kWhole: a word accepted beside the numbers, standing for 0 ("fill": the occupancy maximum).
  std::string zero_word;
  std::vector<std::string> choices;
  std::string accepted;  // kText: what it accepts, for messages ("a file name")
  // Unset: its owner's usual role (a sim's parameter is workload, a scheduler's tuning).
  std::optional<ParameterRole> role;
  // The key it had before a rename: a run of its owner that gives the old key (a command line,
  // a job file or a result written before) sets this parameter, with a note on stderr.
  std::string renamed_from;
  // Where the value lives: RunConfig::declared_values (monostate), or a typed member.
  ConfigMember member;

  // Checks `text` for option `where` (UsageError naming it and what is accepted) and stores its
  // canonical form in c.declared_values.
  void set(RunConfig& c, const std::string& where, const std::string& text) const;
  void set(RunConfig& c, const std::string& text) const { set(c, flag, text); }
  void set(RunConfig& c, const char* text) const { set(c, flag, std::string(text)); }
  // A value from code (tests, the benchmark programs), checked as if typed.
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  void set(RunConfig& c, T v) const {
    if constexpr (std::is_same_v<T, bool>) {
      set(c, std::string(v ? "true" : "false"));
    } else if constexpr (std::is_integral_v<T>) {
      set(c, std::to_string(v));
    } else {
      set(c, shortest_text(static_cast<double>(v)));
    }
  }

  // Whether `c` holds a value for it (not the default); a member always holds one.
  bool given(const RunConfig& c) const;
  // Forgets the value `c` holds for it: the default again.
  void clear(RunConfig& c) const;
  // The value given, or the default; logic_error for an optional one not given (ask given()).
  uint64_t whole(const RunConfig& c) const;
  double real(const RunConfig& c) const;
  bool on(const RunConfig& c) const;
  std::string text(const RunConfig& c) const;  // kChoice and kText

 private:
  std::string stored(const RunConfig& c) const;
  void store(RunConfig& c, const std::string& canonical) const;
};

// A sim's or a scheduler's parameters, in the order --help and the catalog list them.
using DeclaredParameters = std::vector<const DeclaredParameter*>;

// Declarations by kind, so that a sim's list reads as a table.
DeclaredParameter whole_parameter(std::string key, std::string flag, std::string help,
                                  std::string label, uint64_t lo, uint64_t hi,
                                  std::optional<uint64_t> fallback);
DeclaredParameter real_parameter(std::string key, std::string flag, std::string help,
                                 std::string label, double lo, double hi,
                                 std::optional<double> fallback);
DeclaredParameter switch_parameter(std::string key, std::string flag, std::string help,
                                   std::string label);
DeclaredParameter choice_parameter(std::string key, std::string flag, std::string help,
                                   std::string label, std::vector<std::string> choices,
                                   std::string fallback);
DeclaredParameter text_parameter(std::string key, std::string flag, std::string help,
                                 std::string label, std::string accepted,
                                 std::optional<std::string> fallback);

// A declaration with `required` set: a run must give it.
DeclaredParameter required(DeclaredParameter p);

// A declaration whose default results record as null (record_default false).
DeclaredParameter recorded_when_given(DeclaredParameter p);

// A declaration with its value kept in `member` of RunConfig (core/run_config.hpp); its default
// is the member's.
template <class T>
DeclaredParameter stored_in(DeclaredParameter p, T RunConfig::*member) {
  p.member = member;
  return p;
}

// A declaration with a role other than its owner's usual one.
DeclaredParameter with_role(DeclaredParameter p, ParameterRole role);

// A declaration that replaces the key `old_key` (DeclaredParameter::renamed_from).
DeclaredParameter renamed(DeclaredParameter p, std::string old_key);

// `--steps`, which the sims that take steps in one phase (toy, mvp, the example walk) share.
const DeclaredParameter& steps_parameter();

}  // namespace sb
