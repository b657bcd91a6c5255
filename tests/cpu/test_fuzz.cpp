// Generated bad input: numbers, command lines, job files and cross-section files mutated from
// good ones, each mutation one that makes the input bad. Seeded, so that a failure reproduces;
// a failure names the case. Most cases call the parsers in this process; a few hundred run the
// schedbench binary and hold it to the team's rule for bad input: exit code 2, one line on
// stderr, nothing written, no signal (README.md, "Exit codes").
#include <gtest/gtest.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/decimal.hpp"
#include "core/errors.hpp"
#include "harness/job/job.hpp"
#include "harness/job/parameters.hpp"
#include "sims/air/lxcat.hpp"
#include "sims/pic/cross_sections.hpp"
#include "tests/support/process.hpp"
#include "tests/support/temp_dir.hpp"

namespace sb {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using testing_support::Outcome;
using testing_support::TempDir;

using Rng = std::mt19937_64;

size_t below(Rng& rng, size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

template <class T>
const T& pick(Rng& rng, const std::vector<T>& v) {
  return v[below(rng, v.size())];
}

// Text that no number parameter accepts, whole or real.
const std::vector<std::string> kBadNumbers = {
    "0x10",  "0X1p3",    "1e400",    "-1e400", "1e-400",  "nan",  "NaN", "-nan",
    "inf",   "-inf",     "Infinity", "+5",     " 5",      "5 ",   "",    "-",
    ".",     "e5",       "1e",       "1e+",    "1_000",   "1..5", "--5", "5-",
    "0b101", "\xd9\xa5", "5\n",      "\t5",    "1e99999", "-5",   "5%",  "five"};

// A good number with one change that makes it bad: a sign, a space, a prefix, a stray character.
std::string broken_number(Rng& rng) {
  const std::string good = pick(rng, std::vector<std::string>{"100", "0.5", "1e3", "32", "7"});
  // Characters that cannot appear in a decimal number, nor split it into a list ("--gpus 1,0")
  // or a fraction ("--shard 1/2").
  const std::string stray = "xXpP;:_ \t\n\r#%&*!?'\"abcdfghijklmnoqrstuvwyz";
  switch (below(rng, 5)) {
    case 0:
      return "+" + good;
    case 1:
      return good + "e400";
    case 2:
      return "0x" + good;
    case 3:
      return good.substr(0, below(rng, good.size() + 1)) + stray[below(rng, stray.size())] +
             good.substr(below(rng, good.size() + 1));
    default:
      return pick(rng, kBadNumbers);
  }
}

// Printable ASCII, and no longer than a message quoting user text cut to 80 characters can be.
void expect_one_clean_line(const std::string& message, const std::string& context) {
  EXPECT_TRUE(
      std::all_of(message.begin(), message.end(), [](char c) { return c >= 0x20 && c < 0x7f; }))
      << context << "\ngave: " << message;
  EXPECT_LT(message.size(), 1000u) << context;
}

// `read` (a reader given the bad file at `path`) refuses it with one clean line naming the path.
template <class Read>
void expect_file_refused(Read read, const std::string& path, const std::string& context) {
  try {
    read();
    ADD_FAILURE() << context << ": accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":", 0), 0u) << context << "\n" << e.what();
    expect_one_clean_line(e.what(), context);
  }
}

TEST(Fuzz, DecimalParserAcceptsItsGrammarAndNothingElse) {
  Rng rng(12001);
  const std::regex grammar(R"(-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)");
  const std::string alphabet = "0123456789.eE+- xinfa";
  for (int i = 0; i < 5000; ++i) {
    std::string text;
    for (size_t n = below(rng, 9); n > 0; --n)
      text += alphabet[below(rng, alphabet.size())];
    // strtod reads the value; too small a value reads as 0 although its digits are not all 0.
    const double v = std::strtod(text.c_str(), nullptr);
    const std::string mantissa = text.substr(0, text.find_first_of("eE"));
    const bool underflow = v == 0 && mantissa.find_first_of("123456789") != std::string::npos;
    const bool decimal = std::regex_match(text, grammar) && std::isfinite(v) && !underflow;
    const std::optional<double> parsed = parse_decimal(text);
    ASSERT_EQ(parsed.has_value(), decimal) << "case " << i << ": '" << text << "'";
    if (decimal) {
      ASSERT_EQ(*parsed, v) << text;
    }
  }
}

TEST(Fuzz, EveryNumberParameterRefusesBadNumbers) {
  Rng rng(12002);
  std::vector<const Parameter*> numeric;
  for (const Parameter& p : parameters()) {
    // File names and air's gas mixture are text (the sim checks the mixture): any text is one.
    if (p.key != "cross_section" && p.key != "cross_sections" && p.key != "gas")
      numeric.push_back(&p);
  }
  for (int i = 0; i < 3000; ++i) {
    const Parameter& p = *pick(rng, numeric);
    const std::string text = broken_number(rng);
    const std::string context = "case " + std::to_string(i) + ": " + p.flag + " '" + text + "'";
    RunConfig c;
    try {
      p.set(c, p.flag, text);
      ADD_FAILURE() << context << ": accepted";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(p.flag + ": ", 0), 0u) << context << ": " << e.what();
      expect_one_clean_line(e.what(), context);
    }
  }
}

// ---- job files ----

std::vector<std::string> good_jobs() {
  std::vector<std::string> out = {
      R"({"sims": ["mvp", "toy"], "schedulers": ["cpu-serial", "naive"],
          "fallback_schedulers": ["cpu-openmp"], "repetitions": 2, "warmup": 0,
          "axes": [{"init_n": {"log": [10, 1000], "points": 3}, "steps": [5, 10],
                    "split_chance": {"linear": [0.5, 1.5], "step": 0.5}, "layout": "column"},
                   {"init_n": 7, "steps": 3, "block_size": [64, 128], "blocks_per_sm": "fill"}]})",
      R"({"name": "pic", "sims": ["pic"], "schedulers": ["cpu-serial"],
          "axes": {"init_n": 10, "poisson_steps": [1, 2], "mobility_steps": 3,
                   "collision_chance": [1, 50]}})"};
  for (const auto& e : fs::directory_iterator(std::string(SCHEDBENCH_SOURCE_DIR) + "/jobs")) {
    if (e.path().extension() != ".json") continue;
    // A job another program runs (bench_fields) is load_job's to refuse whole.
    const std::string text = testing_support::slurp(e.path().string());
    if (!Json::parse(text).contains("program")) out.push_back(text);
  }
  return out;
}

// Where the leaves (numbers, strings, booleans) of `doc` are, as JSON pointers.
std::vector<std::string> leaves(const Json& doc) {
  std::vector<std::string> out;
  const Json flat = doc.flatten();
  for (const auto& [pointer, value] : flat.items()) {
    if (value.is_primitive() && !value.is_null()) out.push_back(pointer);
  }
  return out;
}

// Keys whose strings are free text: a bad number there is a good string.
bool is_free_text(const std::string& pointer) {
  return pointer.rfind("/name", 0) == 0 || pointer.rfind("/description", 0) == 0 ||
         pointer.rfind("/figures", 0) == 0;
}

// Each of these turns a good job into a bad one.
std::string bad_job(Rng& rng, const std::string& good_text) {
  Json doc = Json::parse(good_text);
  const std::vector<std::string> at = leaves(doc);
  const std::string leaf = pick(rng, at);
  const Json::json_pointer pointer(leaf);
  switch (below(rng, 14)) {
    case 0:
      doc[pointer] = nullptr;
      return doc.dump();
    case 1:
      doc[pointer] = pick(rng, std::vector<Json>{Json::object({{"x", 1}}),
                                                 Json::array({Json::array()}), Json::object()});
      return doc.dump();
    case 2: {  // a number JSON cannot hold, or is not JSON
      std::vector<std::string> numbers;
      for (const std::string& p : at) {
        if (doc[Json::json_pointer(p)].is_number()) numbers.push_back(p);
      }
      doc[Json::json_pointer(pick(rng, numbers))] = "@number@";
      const std::string text = doc.dump();
      return std::regex_replace(
          text, std::regex("\"@number@\""),
          pick(rng, std::vector<std::string>{"1e400", "-1e400", "NaN", "Infinity", "0x10", "+5",
                                             "-inf", ".5"}));
    }
    case 3: {  // a negative number: no count, chance, step or estimate may be one
      std::vector<std::string> numbers;
      for (const std::string& p : at) {
        if (doc[Json::json_pointer(p)].is_number()) numbers.push_back(p);
      }
      doc[Json::json_pointer(pick(rng, numbers))] = -1;
      return doc.dump();
    }
    case 4: {  // a bad number as a string, where the string is a name or a value
      std::vector<std::string> strings;
      for (const std::string& p : at) {
        if (!is_free_text(p) && doc[Json::json_pointer(p)].is_string()) strings.push_back(p);
      }
      doc[Json::json_pointer(pick(rng, strings))] = broken_number(rng);
      return doc.dump();
    }
    case 5: {  // an axis of two billion values
      Json& axes =
          doc["axes"].is_array() ? doc["axes"][below(rng, doc["axes"].size())] : doc["axes"];
      axes[pick(rng, std::vector<std::string>{"init_n", "steps", "seed", "capacity"})] =
          Json::parse(R"({"linear": [1, 2000000000], "step": 1})");
      return doc.dump();
    }
    case 6:
      doc[pick(rng, std::vector<std::string>{"bogus", "Sims", "axis", ""})] = 1;
      return doc.dump();
    case 7:
      doc["name"] = pick(rng, std::vector<std::string>{"../up", "a/b", "..", "", "x..y", "a\nb"});
      return doc.dump();
    case 8: {  // cut short before its closing brace
      const std::string text = doc.dump();
      return text.substr(0, below(rng, text.rfind('}')));
    }
    case 9: {  // a byte JSON refuses wherever it stands: a control character or bad UTF-8
      std::string text = doc.dump();
      const std::string bytes = "\x01\x02\x07\x08\x0b\x0c\x1b\x1f\x80\xbf\xc0\xc1\xf5\xff";
      text.insert(below(rng, text.size() + 1), 1, bytes[below(rng, bytes.size())]);
      return text;
    }
    case 10:  // bytes after the JSON, a NUL first (the parser's end of text) or not
      return doc.dump() + pick(rng, std::vector<std::string>{std::string(1, '\0') + "garbage",
                                                             std::string(1, '\0'), " x", "{}"});
    case 11: {  // a value nested far deeper than any job
      const size_t depth = pick(rng, std::vector<size_t>{101, 1000, 100000});
      doc[pointer] = "@deep@";
      const std::string text = doc.dump();
      return std::regex_replace(text, std::regex("\"@deep@\""),
                                std::string(depth, '[') + std::string(depth, ']'));
    }
    case 12: {  // a switch written as a number, alone, in a list or as a range
      Json& axes =
          doc["axes"].is_array() ? doc["axes"][below(rng, doc["axes"].size())] : doc["axes"];
      axes["skip_spawned"] =
          pick(rng, std::vector<Json>{1, 0, Json::array({true, 1}),
                                      Json::parse(R"({"linear": [0, 1], "step": 1})")});
      return doc.dump();
    }
    default:  // a required key left out
      doc.erase(pick(rng, std::vector<std::string>{"sims", "schedulers", "axes"}));
      return doc.dump();
  }
}

TEST(Fuzz, BadJobFilesAreRefusedWithOneLine) {
  Rng rng(12003);
  TempDir dir;
  const std::vector<std::string> good = good_jobs();
  for (int i = 0; i < 1500; ++i) {
    const std::string text = bad_job(rng, pick(rng, good));
    const std::string path = dir.write("job.json", text);
    const std::string context = "case " + std::to_string(i) + ": " + text.substr(0, 2000);
    try {
      load_job(path, i % 2 == 0);
      ADD_FAILURE() << context << ": accepted";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << context << "\n" << e.what();
      expect_one_clean_line(e.what(), context);
    } catch (const std::exception& e) {
      ADD_FAILURE() << context << ": not a UsageError: " << e.what();
    }
  }
}

// ---- cross-section files ----

// Each of these turns a good table into a bad one.
std::string bad_table(Rng& rng, const std::string& good) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < good.size();) {
    const size_t end = good.find('\n', at);
    lines.push_back(good.substr(at, end - at));
    at = end + 1;
  }
  std::string& line = lines[below(rng, lines.size())];
  switch (below(rng, 7)) {
    case 0: {  // a field that is not a decimal number (no separator in it: still two fields)
      std::string bad;
      do {
        bad = broken_number(rng);
      } while (bad.find_first_of(" \t,\r\n") != std::string::npos && !bad.empty());
      line = below(rng, 2) == 0 ? bad + " 1" : "1 " + bad;
      break;
    }
    case 1: {  // out of range, or more than 100 % together
      const double split = static_cast<double>(below(rng, 101));
      line = pick(rng, std::vector<std::string>{"101 0", "0 100.5", "-1 0", "0 -0.001",
                                                fmt::format("{} {}", split, 100.5 - split)});
      break;
    }
    case 2:
      lines.resize(below(rng, lines.size()));
      break;
    case 3:
      lines.insert(lines.begin() + static_cast<long>(below(rng, lines.size())), 1 + below(rng, 3),
                   "1 1");
      break;
    case 4: {  // a stray byte (not a digit, sign, point, exponent or separator)
      const std::string bytes = "\x01\x1b\x7f\x80\xef\xff\nxX;:_#abc";
      line.insert(below(rng, line.size() + 1), 1, bytes[below(rng, bytes.size())]);
      break;
    }
    case 5:
      lines.front() =
          pick(rng, std::vector<std::string>{"\xff\xfe", "\xfe\xff", "\xef\xbb"}) + lines.front();
      break;
    default: {  // random bytes
      std::string junk;
      for (size_t n = 1 + below(rng, 200); n > 0; --n)
        junk += static_cast<char>(below(rng, 256));
      return junk;
    }
  }
  std::string out;
  for (const std::string& l : lines)
    out += l + "\n";
  return out;
}

std::string good_table() {
  return pic::format_cross_sections(pic::synthetic_cross_sections());
}

TEST(Fuzz, BadCrossSectionFilesAreRefusedWithOneLine) {
  Rng rng(12004);
  TempDir dir;
  const std::string good = good_table();
  for (int i = 0; i < 600; ++i) {
    const std::string text = bad_table(rng, good);
    const std::string path = dir.write("table.txt", text);
    const std::string context = "case " + std::to_string(i);
    expect_file_refused([&] { pic::read_cross_sections(path); }, path, context);
  }
}

// A small LXCat file of two blocks that the reader accepts.
const char* const kGoodLxcat =
    "ELASTIC\nXx\n 1e-4 / mass ratio\n-----\n 0 1e-20\n 10 2e-20\n 100 3e-20\n-----\n"
    "IONIZATION\nXx -> Xx^+\n 15 / threshold\n-----\n 15 0\n 50 1e-20\n 100 2e-20\n-----\n";

// Words no LXCat number may be (each whitespace-free, so that it stays one word).
const std::vector<std::string> kBadLxcatWords = {"0x10", "nan",   "inf", "+5",   "1e400", "five",
                                                 "5%",   "1_000", "--5", "1..5", "-nan",  "e5",
                                                 "1e",   "1e+",   "0b1", "5,",   ".",     "-"};

// kGoodLxcat with one change that makes it bad.
std::string bad_lxcat(Rng& rng) {
  std::vector<std::string> lines;
  std::string line;
  for (const char c : std::string(kGoodLxcat)) {
    if (c != '\n') {
      line += c;
      continue;
    }
    lines.push_back(line);
    line.clear();
  }
  // Data lines: 4-6 and 12-14; parameter lines 2 and 10; closing dashes 7 and 15.
  const std::vector<size_t> data = {4, 5, 6, 12, 13, 14};
  switch (below(rng, 5)) {
    case 0: {  // a number that is not one
      std::string& l = lines[pick(rng, data)];
      const size_t cut = l.find(' ', 1);
      l = below(rng, 2) == 0 ? " " + pick(rng, kBadLxcatWords) + l.substr(cut)
                             : l.substr(0, cut) + " " + pick(rng, kBadLxcatWords);
      break;
    }
    case 1:  // the last table never ends
      lines.pop_back();
      break;
    case 2:  // energies that do not increase
      std::swap(lines[4 + below(rng, 2)], lines[6]);
      break;
    case 3:  // an unknown keyword where one is expected
      lines.insert(lines.begin() + 8, pick(rng, std::vector<std::string>{"ROTATION", "ELASTIK",
                                                                         "elastic", "IONISATION"}));
      break;
    default:  // a block without its parameter line
      lines.erase(lines.begin() + (below(rng, 2) == 0 ? 2 : 10));
      break;
  }
  std::string out;
  for (const std::string& l : lines)
    out += l + "\n";
  return out;
}

TEST(Fuzz, BadLxcatFilesAreRefusedWithOneLine) {
  Rng rng(12008);
  TempDir dir;
  EXPECT_EQ(air::read_lxcat(dir.write("good.txt", kGoodLxcat)).size(), 2u);
  for (int i = 0; i < 400; ++i) {
    const std::string path = dir.write("lxcat.txt", bad_lxcat(rng));
    const std::string context = "case " + std::to_string(i) + ":\n" + testing_support::slurp(path);
    expect_file_refused([&] { air::read_lxcat(path); }, path, context);
  }
}

// ---- the schedbench binary ----

// Every file under `dir`.
std::set<std::string> files_under(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    out.insert(e.path().string());
  return out;
}

// Runs schedbench with its working directory in `inputs` (where a default output would land)
// and checks the rule for bad input.
class Refusals {
 public:
  Refusals() : cwd_(fs::current_path()) { fs::current_path(inputs_.path("")); }
  ~Refusals() { fs::current_path(cwd_); }
  Refusals(const Refusals&) = delete;
  Refusals& operator=(const Refusals&) = delete;

  std::string write(const std::string& name, const std::string& text) const {
    return inputs_.write(name, text);
  }
  std::string path(const std::string& name) const { return inputs_.path(name); }

  void expect_refused(const std::vector<std::string>& args, const std::string& context) {
    const std::set<std::string> before = files_under(inputs_.path(""));
    std::vector<std::string> argv = {SCHEDBENCH_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    const Outcome o = testing_support::run_program(argv, scratch_.path(""));
    EXPECT_NE(o.exit_code, -1) << context << ": ended by a signal";
    EXPECT_EQ(o.exit_code, 2) << context << "\nstderr: " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << context << "\nstderr: " << o.err;
    expect_one_clean_line(o.err.substr(0, o.err.size() - 1), context);
    EXPECT_EQ(files_under(inputs_.path("")), before) << context << ": wrote a file";
    ++runs_;
  }

  int runs() const { return runs_; }

 private:
  fs::path cwd_;
  TempDir inputs_, scratch_;
  int runs_ = 0;
};

std::string joined(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args)
    out += "'" + a + "' ";
  return out;
}

// Good command lines, each with the numeric options that its command reads.
struct GoodCommand {
  std::vector<std::string> args;
  std::vector<std::string> number_options;
};

std::vector<GoodCommand> good_commands(const Refusals& r, const std::string& job,
                                       const std::string& table) {
  const std::vector<std::string> run_numbers = {"--init-n",       "--capacity", "--seed",
                                                "--steps",        "--timeout",  "--block-size",
                                                "--blocks-per-sm"};
  std::vector<std::string> pic_numbers = {"--poisson-steps", "--mobility-steps",
                                          "--collision-chance", "--init-n", "--seed"};
  return {
      {{"run", "--sim", "mvp", "--scheduler", "cpu-serial", "--init-n", "100", "--steps", "10",
        "--split-chance", "1", "--json", r.path("r.json")},
       {"--init-n", "--capacity", "--seed", "--steps", "--timeout", "--block-size",
        "--blocks-per-sm", "--split-chance"}},
      {{"run", "--sim", "pic", "--scheduler", "cpu-serial", "--init-n", "10", "--poisson-steps",
        "1", "--mobility-steps", "2", "--cross-section", table, "--density-png", r.path("d"),
        "--density-phases", "0"},
       {"--poisson-steps", "--mobility-steps", "--init-n", "--density-phases"}},
      {{"run", "--sim", "toy", "--scheduler", "cpu-serial", "--init-n", "10", "--steps", "10",
        "--frames", r.path("frames"), "--frame-every", "5"},
       {"--init-n", "--steps", "--frame-every"}},
      {{"sweep", job, "--out", r.path("out.json"), "--runner", "/bin/false"},
       {"--shard", "--gpus", "--point-timeout", "--max-points"}},
      {{"sweep", job, "--list"}, {"--max-points", "--shard", "--gpus", "--point-timeout"}},
      {{"submit", job, "--slurm", "--script", r.path("s.sh"), "--out", r.path("m.json")},
       {"--shards", "--gpus-per-shard", "--max-points", "--nodes", "--ranks-per-node"}},
      {{"table", "--sim", "pic", "--out", r.path("t.txt"), "--collision-chance", "5"},
       {"--collision-chance"}},
  };
}

// Each of these turns a good command line into a bad one.
std::vector<std::string> bad_command(Rng& rng, const GoodCommand& good) {
  std::vector<std::string> args = good.args;
  switch (below(rng, 5)) {
    case 0:  // a bad number, given last (the last of a repeated option wins)
      args.push_back(pick(rng, good.number_options));
      args.push_back(broken_number(rng));
      return args;
    case 1: {  // an option's name with a stray byte
      std::vector<size_t> options;
      for (size_t i = 1; i < args.size(); ++i) {
        if (args[i].rfind("--", 0) == 0) options.push_back(i);
      }
      std::string& name = args[pick(rng, options)];
      const std::string bytes = "\x01\n\x7f\xff#xyz";
      name.insert(2 + below(rng, name.size() - 1), 1, bytes[below(rng, bytes.size())]);
      return args;
    }
    case 2:  // an option without its value
      args.push_back(pick(rng, good.number_options));
      return args;
    case 3:  // an unknown command
      args[0] = pick(rng, std::vector<std::string>{"rn", "sweeep", "", "\x1b[2J", "RUN"});
      return args;
    default:  // a range that is not one
      args.push_back(pick(rng, good.number_options));
      args.push_back(
          pick(rng, std::vector<std::string>{"-1", "-0.5", "1e300", "99999999999999999999"}));
      return args;
  }
}

TEST(Fuzz, SchedbenchRefusesBadCommandLines) {
  Rng rng(12005);
  Refusals r;
  const std::string job = r.write(
      "job.json",
      R"({"sims": ["mvp"], "schedulers": ["cpu-serial"], "axes": {"init_n": [1, 2], "steps": 5}})");
  const std::string table = r.write("table.txt", good_table());
  const std::vector<GoodCommand> commands = good_commands(r, job, table);
  for (int i = 0; i < 300; ++i) {
    const std::vector<std::string> args = bad_command(rng, pick(rng, commands));
    r.expect_refused(args, "case " + std::to_string(i) + ": " + joined(args));
  }
}

TEST(Fuzz, SchedbenchRefusesBadJobFiles) {
  Rng rng(12006);
  Refusals r;
  const std::vector<std::string> good = good_jobs();
  for (int i = 0; i < 200; ++i) {
    const std::string text = bad_job(rng, pick(rng, good));
    const std::string job = r.write("job.json", text);
    const std::vector<std::vector<std::string>> commands = {
        {"sweep", job, "--list"},
        {"sweep", job, "--out", r.path("out.json"), "--runner", "/bin/false"},
        {"sweep", job, "--runner", "/bin/false"},  // default results/<device>/<name>.json
        {"submit", job, "--slurm"}};               // default <name>.slurm.sh
    r.expect_refused(pick(rng, commands),
                     "case " + std::to_string(i) + ": " + text.substr(0, 2000));
  }
}

TEST(Fuzz, SchedbenchRefusesBadCrossSectionFiles) {
  Rng rng(12007);
  Refusals r;
  const std::string good = good_table();
  for (int i = 0; i < 120; ++i) {
    const std::string table = r.write("table.txt", bad_table(rng, good));
    r.expect_refused(
        {"run", "--sim", "pic", "--scheduler", "cpu-serial", "--init-n", "10", "--poisson-steps",
         "1", "--mobility-steps", "2", "--cross-section", table, "--json", r.path("r.json")},
        "case " + std::to_string(i));
  }
}

TEST(Fuzz, SchedbenchRefusesBadSlurmOptions) {
  Rng rng(12009);
  Refusals r;
  const std::string job = r.write(
      "job.json",
      R"({"sims": ["mvp"], "schedulers": ["cpu-serial"], "axes": {"init_n": [1, 2], "steps": 5}})");
  const std::vector<std::pair<std::string, std::string>> texts = {{"--partition", "gpu"},
                                                                  {"--account", "project-1"},
                                                                  {"--launcher", "srun -n {ranks}"},
                                                                  {"--time", "01:00:00"},
                                                                  {"--out", r.path("merged.json")}};
  const std::string control = "\n\r\x01\x1b\x7f";
  for (int i = 0; i < 60; ++i) {
    auto [option, value] = pick(rng, texts);
    value.insert(below(rng, value.size() + 1), 1, control[below(rng, control.size())]);
    const std::vector<std::string> args = {"submit",       job,    "--slurm", "--script",
                                           r.path("s.sh"), option, value};
    r.expect_refused(args, "case " + std::to_string(i) + ": " + joined(args));
  }
}

// A shard file with one fault: a field of the wrong type, a point listed twice or in another
// shard's place. merge refuses it: exit 2, one line, nothing written.
TEST(Fuzz, SchedbenchRefusesBadShardFiles) {
  Rng rng(12010);
  Refusals r;
  const std::string job = r.write("job.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial"],
    "repetitions": 1, "warmup": 0, "axes": {"init_n": 20, "steps": 5, "seed": [1, 2, 3, 4]}})");
  const std::string out = r.path("seeds.json");
  for (const char* shard : {"1/2", "2/2"}) {
    const Outcome o = testing_support::run_program(
        {SCHEDBENCH_EXE, "sweep", job, "--out", out, "--shard", shard}, r.path(""));
    ASSERT_EQ(o.exit_code, 0) << o.err;
  }
  const std::string first = r.path("seeds.shard-1-of-2.json");
  const nlohmann::ordered_json good = nlohmann::ordered_json::parse(testing_support::slurp(first));
  const std::vector<std::pair<std::string, nlohmann::ordered_json>> wrong_types = {
      {"index", "0"},
      {"index", -1},
      {"label", 3},
      {"status", "done"},
      {"status", nullptr},
      {"config", "mvp"},
      {"digest", 12},
      {"repetitions_ms", 5},
      {"repetitions_ms", {1, "a"}},
      {"stats", {{"median_ms", "fast"}}}};
  for (int i = 0; i < 40; ++i) {
    nlohmann::ordered_json shard = good;
    nlohmann::ordered_json& points = shard["points"];
    const size_t k = below(rng, points.size());
    switch (below(rng, 3)) {
      case 0: {
        const auto& [field, value] = pick(rng, wrong_types);
        points[k][field] = value;
        break;
      }
      case 1:
        points.push_back(points[k]);
        break;
      default:
        points[k]["index"] = points[k]["index"].get<size_t>() + 1;  // shard 2's point
        break;
    }
    r.write("seeds.shard-1-of-2.json", shard.dump());
    r.expect_refused({"merge", out}, "case " + std::to_string(i) + ": " + shard.dump());
  }
}

// ---- results files, as compare, export and sweep --resume read them ----

// A good results file (a sweep's) with one fault that makes it bad: a field its readers read
// left out or of another type, a time that gives no ratio, a point listed twice, bytes after the
// JSON or nesting past the bound.
std::string bad_results(Rng& rng, const nlohmann::ordered_json& good) {
  using Ordered = nlohmann::ordered_json;
  Ordered doc = good;
  Ordered& points = doc["points"];
  Ordered& p = points[below(rng, points.size())];
  const std::vector<std::string> read = {"/index",
                                         "/label",
                                         "/config",
                                         "/config/sim",
                                         "/config/scheduler",
                                         "/status",
                                         "/digest",
                                         "/repetitions_ms",
                                         "/stats",
                                         "/stats/median_ms",
                                         "/stats/cv",
                                         "/counts",
                                         "/counts/final",
                                         "/counts/peak",
                                         "/counts/particle_steps",
                                         "/counters",
                                         "/counters/particle_steps_per_s"};
  switch (below(rng, 6)) {
    case 0: {  // left out
      const Ordered::json_pointer at(pick(rng, read));
      p[at.parent_pointer()].erase(at.back());
      return doc.dump();
    }
    case 1:  // of another type
      p[Ordered::json_pointer(pick(rng, read))] =
          pick(rng, std::vector<Ordered>{nullptr, "7", Ordered::array(), Ordered::object(),
                                         Ordered::array({"x"}), true});
      return doc.dump();
    case 2:  // times that give no ratio, or none
      if (below(rng, 2) == 0) {
        p["repetitions_ms"] =
            pick(rng, std::vector<Ordered>{
                          Ordered::array(), {0.0}, {1.0, -1.0}, {5e-324}, {1e300}, {1.0, 0.0}});
      } else {
        p["stats"]["median_ms"] = pick(rng, std::vector<Ordered>{0, -2.5, 5e-324, 1e300});
      }
      return doc.dump();
    case 3:  // a point listed twice, or two of one configuration
      if (below(rng, 2) == 0) {
        points.push_back(p);
      } else {
        Ordered twin = p;
        twin["label"] = "twin";
        twin["index"] = 99;
        points.push_back(twin);
      }
      return doc.dump();
    case 4:  // bytes after the JSON
      return doc.dump() + pick(rng, std::vector<std::string>{std::string(1, '\0') + "{}", " x"});
    default: {  // nested past the bound
      const size_t depth = pick(rng, std::vector<size_t>{101, 100000});
      p["config"]["seed"] = "@deep@";
      return std::regex_replace(doc.dump(), std::regex("\"@deep@\""),
                                std::string(depth, '[') + std::string(depth, ']'));
    }
  }
}

TEST(Fuzz, SchedbenchRefusesBadResultsFiles) {
  Rng rng(12011);
  Refusals r;
  const std::string job = r.write("job.json", R"({"sims": ["mvp"], "schedulers": ["cpu-serial"],
    "repetitions": 3, "warmup": 0, "axes": {"init_n": 20, "steps": 5, "seed": [1, 2, 3]}})");
  const std::string good = r.path("good.json");
  const Outcome o =
      testing_support::run_program({SCHEDBENCH_EXE, "sweep", job, "--out", good}, r.path(""));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(testing_support::slurp(good));
  const std::string bad = r.path("seeds.json");  // the job's name: what --resume reads
  for (int i = 0; i < 40; ++i) {
    const std::string text = bad_results(rng, doc);
    r.write("seeds.json", text);
    const std::string context = "case " + std::to_string(i) + ": " + text.substr(0, 1500);
    r.expect_refused({"compare", good, bad}, context + " (compare A B)");
    r.expect_refused({"compare", bad, good, "--fail-if-slower", "5"}, context + " (compare B A)");
    r.expect_refused({"export", bad}, context + " (export)");
    r.expect_refused({"sweep", job, "--out", bad, "--resume"}, context + " (resume)");
    EXPECT_EQ(testing_support::slurp(bad), text) << context << ": --resume changed it";
  }
}

// ---- schedbench-point --serve's orders ----

// A good order ({"request": PATH, "result": PATH}) with one fault: a field of another type,
// empty or left out, not JSON, bytes after it, or nesting past the bound.
std::string bad_order(Rng& rng, const std::string& request, const std::string& result) {
  Json order = {{"request", request}, {"result", result}};
  const std::string key = pick(rng, std::vector<std::string>{"request", "result"});
  switch (below(rng, 5)) {
    case 0:
      order[key] = pick(rng, std::vector<Json>{1, nullptr, true, Json::array({request}),
                                               Json::object({{"path", request}}), ""});
      return order.dump();
    case 1:
      order.erase(key);
      return order.dump();
    case 2: {
      const std::string text = order.dump();
      return pick(rng, std::vector<std::string>{text.substr(0, below(rng, text.size())), "[]", "42",
                                                "null", "order"});
    }
    case 3:
      return order.dump() + std::string(1, '\0') + "garbage";
    default: {
      const size_t depth = pick(rng, std::vector<size_t>{101, 100000});
      order["extra"] = "@deep@";
      return std::regex_replace(order.dump(), std::regex("\"@deep@\""),
                                std::string(depth, '[') + std::string(depth, ']'));
    }
  }
}

// Each bad order ends the server with exit code 2 and one line, measures nothing and writes no
// result: never an internal error, a crash or a request read from half an order.
TEST(Fuzz, PointServerRefusesBadOrders) {
  Rng rng(12012);
  TempDir dir;
  const std::string request = dir.write(
      "request.json",
      Json{{"config", {{"sim", "mvp"}, {"scheduler", "cpu-serial"}, {"init_n", 20}, {"steps", 5}}},
           {"sampling", {{"warmup", 0}, {"repetitions", 1}}}}
          .dump());
  const std::string result = dir.path("result.json");
  for (int i = 0; i < 40; ++i) {
    const std::string order = bad_order(rng, request, result);
    const std::string orders = dir.write("orders", order + "\n");
    const std::string context = "case " + std::to_string(i) + ": " + order.substr(0, 300);
    const Outcome o = testing_support::run_program(
        {"/bin/sh", "-c", "exec \"$0\" --serve < \"$1\"", SCHEDBENCH_POINT_EXE, orders},
        dir.path(""));
    EXPECT_EQ(o.exit_code, 2) << context << "\nstderr: " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << context << "\nstderr: " << o.err;
    EXPECT_EQ(o.err.find("internal error"), std::string::npos) << context << "\n" << o.err;
    expect_one_clean_line(o.err.substr(0, o.err.empty() ? 0 : o.err.size() - 1), context);
    EXPECT_FALSE(fs::exists(result)) << context << ": wrote a result";
    fs::remove(result);
  }
}

}  // namespace
}  // namespace sb
