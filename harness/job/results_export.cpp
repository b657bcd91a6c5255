#include "harness/job/results_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

// A cell: text as it is, numbers in full (17 significant digits), switches as true/false.
std::string cell(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return fmt::format("{:.17g}", v.get<double>());
  return v.dump();
}

// The record's cells by column: the configuration's keys bare (a record's own field of the same
// name, its ranks, says the same), the rest as group.key.
std::map<std::string, std::string> flat(const Json& point) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : point.items()) {
    if (key == "config") {
      continue;
    } else if (value.is_object()) {
      for (const auto& [k, v] : value.items()) {
        if (v.is_primitive() && !v.is_null()) out[key + "." + k] = cell(v);
      }
    } else if (value.is_primitive() && !value.is_null()) {
      out[key] = cell(value);
    }
  }
  const Json config = point.value("config", Json::object());
  for (const auto& [k, v] : config.items())
    out[k] = cell(v);
  return out;
}

}  // namespace

TextTable results_table(const Json& results) {
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<std::string> head = {"label"};
  // Columns in the order first seen: the configuration's, then the record's.
  for (const Json& point : results.at("points")) {
    rows.push_back(flat(point));
    std::vector<std::string> keys;
    const Json config = point.value("config", Json::object());
    for (const auto& [k, v] : config.items())
      keys.push_back(k);
    for (const auto& [k, v] : rows.back()) {
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
    for (const std::string& k : keys) {
      if (std::find(head.begin(), head.end(), k) == head.end()) head.push_back(k);
    }
  }
  TextTable table(head);
  for (const auto& row : rows) {
    std::vector<std::string> cells;
    for (const std::string& k : head) {
      const auto it = row.find(k);
      cells.push_back(it == row.end() ? "" : it->second);
    }
    table.add_row(cells);
  }
  return table;
}

}  // namespace sb
