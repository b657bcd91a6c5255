#include "harness/bench/compare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <utility>

#include "harness/bench/statistics.hpp"
#include "harness/io/text_table.hpp"
#include "harness/job/job_results.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

std::vector<double> times_of(const Json& point) {
  return point["repetitions_ms"].get<std::vector<double>>();
}

std::string percent(double ratio) {
  return fmt::format("{:+.1f}%", 100 * (ratio - 1));
}

// Adds point `q` against `p` (both ok). A point its file marks noisy (its median's interval
// stayed wide, or the GPU slowed its clocks) gets no faster or slower verdict: the interval of
// the ratio resamples each file's repetitions and cannot see the drift that made it noisy.
void add_pair(Comparison& c, const Json& p, const Json& q, const std::string& label) {
  const MedianRatio r = median_ratio(times_of(p), times_of(q));
  std::string verdict = verdict_of(r.lo, r.hi, c.options);
  if ((verdict == "faster" || verdict == "slower") &&
      (p.value("noisy", false) || q.value("noisy", false)))
    verdict = "noisy";
  c.points.push_back({label, p["stats"]["median_ms"].get<double>(),
                      q["stats"]["median_ms"].get<double>(), r.ratio, r.lo, r.hi, verdict,
                      p["digest"] != q["digest"]});
}

// Whether `p` and `q` measured the same workload but for `key`: every other parameter both
// configurations have is equal (a scheduler's own parameters, which the other lacks, aside).
bool same_but(const Json& p, const Json& q, const std::string& key) {
  for (const auto& [k, v] : p["config"].items()) {
    if (k != key && !v.is_null() && q["config"].contains(k) && q["config"][k] != v) return false;
  }
  return true;
}

}  // namespace

std::string verdict_of(double lo, double hi, const CompareOptions& o) {
  const double top = (1 + o.same_within) * (1 + o.floor);
  const double bottom = (1 - o.same_within) / (1 + o.floor);
  if (lo > top) return "slower";
  if (hi < bottom) return "faster";
  if (lo >= bottom && hi <= top) return "same";
  return "unsure";
}

bool slower_beyond(double lo, double beyond, const CompareOptions& o) {
  return lo > (1 + beyond) * (1 + o.floor);
}

void set_geometric_mean(Comparison& c) {
  double log_sum = 0;
  for (const PointComparison& p : c.points)
    log_sum += std::log(p.ratio);
  if (!c.points.empty())
    c.geometric_mean = std::exp(log_sum / static_cast<double>(c.points.size()));
}

Comparison compare_within(const Json& doc, const std::string& path, const std::string& key,
                          const std::string& baseline, const CompareOptions& options) {
  Comparison c{path + " (" + key + " " + baseline + ")", path, options, "", {}, {}, {}, 1};
  const auto value_of = [&](const Json& p) {
    const Json& v = p["config"].value(key, Json());
    return v.is_string() ? v.get<std::string>() : v.dump();
  };
  for (const Json& q : doc["points"]) {
    if (q["status"] != "ok" || value_of(q) == baseline) continue;
    const Json* base = nullptr;
    for (const Json& p : doc["points"]) {
      if (p["status"] == "ok" && value_of(p) == baseline && same_but(p, q, key)) {
        base = &p;
        break;
      }
    }
    if (base == nullptr) {
      c.only_b.push_back(q["label"].get<std::string>());
    } else {
      add_pair(c, *base, q, q["label"].get<std::string>());
    }
  }
  set_geometric_mean(c);
  return c;
}

Comparison compare_results(const Json& a, const Json& b, const std::string& a_path,
                           const std::string& b_path, const CompareOptions& options) {
  Comparison c{a_path, b_path, options, "", {}, {}, {}, 1};
  // Each configuration is one point of a file (read_results_file).
  std::map<std::string, const Json*> in_b;
  for (const Json& p : b["points"]) {
    if (p["status"] == "ok") in_b[configuration_key(p)] = &p;
  }
  std::map<std::string, bool> matched;
  for (const Json& p : a["points"]) {
    if (p["status"] != "ok") continue;
    const auto found = in_b.find(configuration_key(p));
    if (found == in_b.end()) {
      c.only_a.push_back(p["label"].get<std::string>());
      continue;
    }
    matched[found->first] = true;
    add_pair(c, p, *found->second, p["label"].get<std::string>());
  }
  for (const auto& [key, p] : in_b) {
    if (matched.count(key) == 0) c.only_b.push_back((*p)["label"].get<std::string>());
  }
  set_geometric_mean(c);
  return c;
}

std::string comparison_text(const Comparison& c, bool markdown) {
  TextTable table({"point", "A median ms", "B median ms", "B/A", "95% interval", "verdict"});
  std::map<std::string, int> counts;
  int digests = 0;
  for (const PointComparison& p : c.points) {
    ++counts[p.verdict];
    digests += p.digest_changed ? 1 : 0;
    table.add_row({p.label, fmt::format("{:.3f}", p.a_ms), fmt::format("{:.3f}", p.b_ms),
                   fmt::format("{:.3f}", p.ratio), fmt::format("[{:.3f}, {:.3f}]", p.lo, p.hi),
                   p.verdict + (p.digest_changed ? " DIGEST CHANGED" : "")});
  }
  std::string out = markdown ? table.markdown() : table.str();
  out += fmt::format(
      "\n{} points in both ({} only in A, {} only in B); B/A geometric mean {:.3f} ({}); faster "
      "{}, slower {}, same {}, unsure {}, noisy {}; digest changes {}\n",
      c.points.size(), c.only_a.size(), c.only_b.size(), c.geometric_mean,
      percent(c.geometric_mean), counts["faster"], counts["slower"], counts["same"],
      counts["unsure"], counts["noisy"], digests);
  // Only compare's own intervals, from one file's repetitions each, give way to a file's noisy.
  const bool own = c.method.empty();
  const std::string method =
      own ? fmt::format(
                "the ratio of B's median to A's, its 95% interval from {} bootstrap "
                "resamples of each point's repetitions",
                kResamples)
          : c.method;
  const std::string band =
      c.options.floor_file.empty()
          ? fmt::format("within {:.0f}% of 1", 100 * c.options.same_within)
          : fmt::format(
                "within {:.0f}% of 1 widened by the noise floor {:.1f}% ({}) to [{:.3f}, "
                "{:.3f}]",
                100 * c.options.same_within, 100 * c.options.floor, c.options.floor_file,
                (1 - c.options.same_within) / (1 + c.options.floor),
                (1 + c.options.same_within) * (1 + c.options.floor));
  out += fmt::format(
      "test: {}; 'same' where the whole interval lies {}, 'faster' or 'slower' where it lies "
      "wholly beyond{}, 'unsure' otherwise\n",
      method, band, own ? " (but 'noisy' where either file marks the point noisy)" : "");
  return out;
}

Json comparison_json(const Comparison& c) {
  Json points = Json::array();
  for (const PointComparison& p : c.points) {
    points.push_back({{"label", p.label},
                      {"a_median_ms", p.a_ms},
                      {"b_median_ms", p.b_ms},
                      {"ratio", p.ratio},
                      {"interval", {p.lo, p.hi}},
                      {"verdict", p.verdict},
                      {"digest_changed", p.digest_changed}});
  }
  return {{"schema", "schedbench.compare/1"},
          {"a", c.a_path},
          {"b", c.b_path},
          {"same_within", c.options.same_within},
          {"noise_floor", c.options.floor},
          {"noise_floor_file", c.options.floor_file},
          {"resamples", kResamples},
          {"points", points},
          {"only_a", c.only_a},
          {"only_b", c.only_b},
          {"geometric_mean", c.geometric_mean}};
}

}  // namespace sb
