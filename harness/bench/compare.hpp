// `schedbench compare A.json B.json`: the points two results files share (the same
// configuration), B's median time against A's with a bootstrap interval, a verdict per point and a
// summary (docs/guide.md, "Comparing two results files").
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sb {

struct CompareOptions {
  double same_within = 0.03;  // a ratio whose whole interval lies within 1 +- this is "same"
  // The drift between two sweeps of one build on the device (noise_floor.hpp), as a fraction: the
  // band of "same" widens by the factor 1 + floor at each end, and so does what the gate reads.
  double floor = 0;
  std::string floor_file;  // where it came from; empty: no floor
};

struct PointComparison {
  std::string label;
  double a_ms = 0, b_ms = 0;         // medians
  double ratio = 1, lo = 1, hi = 1;  // b / a and its 95 % bootstrap interval
  std::string verdict;               // faster, slower, same, unsure, noisy
  bool digest_changed = false;       // a correctness change, whatever the times
};

struct Comparison {
  std::string a_path, b_path;
  CompareOptions options;
  // How the ratios and their intervals were made, for the table's closing line (empty: compare's
  // bootstrap of each file's repetitions).
  std::string method;
  std::vector<PointComparison> points;      // in A's order
  std::vector<std::string> only_a, only_b;  // labels of points the other file lacks
  double geometric_mean = 1;                // of the ratios
};

// The verdict on an interval [lo, hi] of a ratio b / a: "same" within 1 +- same_within widened by
// the floor's factor, "slower" or "faster" wholly past that band, "unsure" otherwise.
std::string verdict_of(double lo, double hi, const CompareOptions& o);

// Whether an interval [lo, hi] of b / a lies wholly above 1 + `beyond` widened by the floor's
// factor (compare --fail-if-slower).
bool slower_beyond(double lo, double beyond, const CompareOptions& o);

// Sets c.geometric_mean from its points' ratios (1 where it has none).
void set_geometric_mean(Comparison& c);

// Compares the ok points of two schedbench.job/1 documents (read from `a_path` and `b_path`).
Comparison compare_results(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b,
                           const std::string& a_path, const std::string& b_path,
                           const CompareOptions& options);

// Within one file (`compare A --by KEY=BASELINE`): each ok point whose KEY is not BASELINE
// against the first ok point whose KEY is BASELINE and whose other parameters, where both have
// them, are equal (B is the point, A its baseline; points without one are listed as only_b).
Comparison compare_within(const nlohmann::ordered_json& doc, const std::string& path,
                          const std::string& key, const std::string& baseline,
                          const CompareOptions& options);

// The comparison as a text table, as markdown, or as JSON (schedbench.compare/1).
std::string comparison_text(const Comparison& c, bool markdown);
nlohmann::ordered_json comparison_json(const Comparison& c);

}  // namespace sb
