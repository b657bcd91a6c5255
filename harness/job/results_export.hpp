// A results file (schedbench.job/1) as one flat table, a row per point, for pandas, R and
// spreadsheets (`schedbench export`): the label, the configuration's parameters as their own
// columns, then every other number or text of the record under its group ("stats.median_ms",
// "counts.final", "counters.efficiency"); lists (each repetition's time) stay in the JSON.
#pragma once

#include <nlohmann/json.hpp>

#include "harness/io/text_table.hpp"

namespace sb {

TextTable results_table(const nlohmann::ordered_json& results);

}  // namespace sb
