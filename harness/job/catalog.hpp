// The catalog: every sim, scheduler (with its tuning policies) and parameter (with its flag,
// meaning, plot label and role), as `schedbench list --json` prints it and a sweep writes it next
// to its results (catalog.json), so that plot scripts take names and labels from the code that
// declares them instead of a copy.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "schedulers/scheduler.hpp"

namespace sb {

inline constexpr const char* kCatalogSchema = "schedbench.catalog/1";

// "cpu", "gpu" or "yardstick".
const char* kind_name(SchedulerKind k);

nlohmann::json catalog_json();

// Writes catalog_json() atomically as catalog.json in the folder of `results_path`.
void write_catalog_beside(const std::string& results_path);

}  // namespace sb
