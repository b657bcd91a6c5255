// `schedbench compare A.json B.json`: the points two results files share (the same
// configuration), B's median time against A's with a bootstrap interval, a verdict per point and a
// summary (docs/performance.md, "Comparing two results files").
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sb {

struct CompareOptions {
  double same_within = 0.03;  // a ratio whose whole interval lies within 1 +- this is "same"
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
  std::vector<PointComparison> points;      // in A's order
  std::vector<std::string> only_a, only_b;  // labels of points the other file lacks
  double geometric_mean = 1;                // of the ratios
};

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
