// A results file (schedbench.job/1) as one flat table for pandas, R and spreadsheets
// (`schedbench export`): a row per point, with the label, the configuration's parameters as their
// own columns, then every other number or text of the record under its group ("stats.median_ms",
// "counts.final", "counters.efficiency") and `noisy` (true or false); or, long, a row per
// repetition: the label, the configuration's parameters, `repetition` (from 0, as
// `repetitions_ms` holds them) and `time_ms`. Values keep their type: whole numbers as integers,
// switches as true/false, decimals in the shortest text that reads back as the same double.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace sb {

// The rows, each an object of typed values keyed by column, in the order the columns first
// appear (the label, the configuration's, then the record's).
nlohmann::ordered_json results_rows(const nlohmann::ordered_json& results);
nlohmann::ordered_json repetition_rows(const nlohmann::ordered_json& results);

// `rows` as `format`: "csv" (a header, then a row each; a column a row lacks is empty), "md" (a
// markdown table of the same cells) or "json" (the array of objects, values typed).
std::string export_text(const nlohmann::ordered_json& rows, const std::string& format);

}  // namespace sb
