#include "harness/job/results_export.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/declared_parameter.hpp"
#include "harness/io/text_table.hpp"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

// A text cell of a typed value: text as it is, decimals in their shortest exact form, whole
// numbers and switches as JSON writes them.
std::string cell(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return shortest_text(v.get<double>());
  return v.dump();
}

// The label and the configuration's keys bare (a record's own field of the same name, its ranks,
// says the same).
Json point_head(const Json& point) {
  Json row = {{"label", point.value("label", "")}};
  const Json config = point.value("config", Json::object());
  for (const auto& [k, v] : config.items())
    row[k] = v;
  return row;
}

}  // namespace

Json results_rows(const Json& results) {
  Json rows = Json::array();
  for (const Json& point : results.at("points")) {
    Json row = point_head(point);
    for (const auto& [key, value] : point.items()) {
      if (key == "config" || key == "label" || row.contains(key)) {
        continue;
      } else if (value.is_object()) {
        for (const auto& [k, v] : value.items()) {
          if (v.is_primitive() && !v.is_null()) row[key + "." + k] = v;
        }
      } else if (value.is_primitive() && !value.is_null()) {
        row[key] = value;
      }
    }
    // A point record names `noisy` only where it is; every row says it.
    row["noisy"] = point.value("noisy", false);
    rows.push_back(std::move(row));
  }
  return rows;
}

Json repetition_rows(const Json& results) {
  Json rows = Json::array();
  for (const Json& point : results.at("points")) {
    const Json times = point.value("repetitions_ms", Json::array());
    for (size_t i = 0; i < times.size(); ++i) {
      Json row = point_head(point);
      row["repetition"] = i;
      row["time_ms"] = times[i];
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::string export_text(const Json& rows, const std::string& format) {
  if (format == "json") return rows.dump(2) + "\n";
  std::vector<std::string> head;
  for (const Json& row : rows) {
    for (const auto& [k, v] : row.items()) {
      if (std::find(head.begin(), head.end(), k) == head.end()) head.push_back(k);
    }
  }
  TextTable table(head.empty() ? std::vector<std::string>{"label"} : head);
  for (const Json& row : rows) {
    std::vector<std::string> cells;
    for (const std::string& k : head)
      cells.push_back(row.contains(k) ? cell(row[k]) : "");
    table.add_row(cells);
  }
  return table.as(format);
}

}  // namespace sb
