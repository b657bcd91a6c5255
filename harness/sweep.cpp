#include "harness/sweep.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "core/errors.hpp"
#include "harness/atomic_file.hpp"
#include "harness/environment.hpp"
#include "harness/parameters.hpp"
#include "harness/run_report.hpp"
#include "harness/text_table.hpp"
#include "schedulers/registry.hpp"

namespace sb {

int run_sweep(const Job& job, const std::string& out_dir) {
  std::filesystem::create_directories(out_dir);
  for (const std::string& why : job.skipped) fmt::print("{}: {}\n", job.path, why);

  // Columns for the parameters that take more than one value across the job.
  std::vector<nlohmann::json> configs;
  std::map<std::string, std::set<std::string>> values;
  for (const JobPoint& p : job.points) {
    configs.push_back(config_json(p.config));
    for (const auto& [key, value] : configs.back().items()) values[key].insert(value.dump());
  }
  std::vector<std::string> varying;
  for (const auto& [key, seen] : values) {
    if (seen.size() > 1 && key != "sim" && key != "scheduler") varying.push_back(key);
  }
  std::vector<std::string> header = {"sim", "scheduler"};
  header.insert(header.end(), varying.begin(), varying.end());
  for (const char* h : {"final", "time ms", "particle-steps/s", "status"}) header.emplace_back(h);
  TextTable table(header);

  int failed = 0;
  const size_t n = job.points.size();
  for (size_t i = 0; i < n; ++i) {
    const JobPoint& point = job.points[i];
    fmt::print("[{}/{}] {}\n", i + 1, n, point.label);
    std::fflush(stdout);
    nlohmann::json record;
    std::vector<std::string> row = {point.config.sim, point.config.scheduler};
    const nlohmann::json& cfg = configs[i];
    for (const std::string& key : varying) row.push_back(cfg.contains(key) ? cfg[key].dump() : "");
    try {
      const RunResult r = run(point.config);
      record = run_json(point.config, r);
      const nlohmann::json& res = record["result"];
      row.push_back(std::to_string(r.counts.final));
      row.push_back(fmt::format("{:.3f}", r.time_ms));
      row.push_back(fmt::format("{:.3g}", res["particle_steps_per_s"].get<double>()));
      row.emplace_back("ok");
    } catch (const RunError& e) {
      ++failed;
      record = {{"schema", kRunSchema},
                {"config", cfg},
                {"error", e.what()},
                {"environment", environment_json()}};
      row.insert(row.end(), {"", "", "", "failed"});
      fmt::print(stderr, "  failed: {}\n", e.what());
    }
    record["job"] = {{"name", job.name}, {"file", job.path}, {"point", point.label}};
    write_file_atomically(out_dir + "/" + point.label + ".json", record.dump(2) + "\n");
    table.add_row(row);
  }
  fmt::print("\n{}", table.str());
  return failed;
}

}  // namespace sb
