#include "harness/io/text_table.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>

namespace sb {
namespace {

// A number or a hex digest: the whole cell parses.
bool looks_numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return *end == '\0';
}

// A CSV field: quoted where it holds a comma, a quote or a line break, quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A Markdown table cell: its bars escaped and its line breaks as <br>, so that it stays one cell
// of one row.
std::string markdown_cell(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '|') {
      out += "\\|";
    } else if (s[i] == '\r' || s[i] == '\n') {
      if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      out += "<br>";
    } else {
      out += s[i];
    }
  }
  return out;
}

// A whole number, exactly (a seed may be up to 2^64 - 1, beyond a double's 53 bits); else none.
std::optional<nlohmann::ordered_json> whole_number(const std::string& s) {
  const char* end = s.data() + s.size();
  uint64_t u = 0;
  if (const auto r = std::from_chars(s.data(), end, u); r.ec == std::errc() && r.ptr == end)
    return nlohmann::ordered_json(u);
  int64_t i = 0;
  if (const auto r = std::from_chars(s.data(), end, i); r.ec == std::errc() && r.ptr == end)
    return nlohmann::ordered_json(i);
  return std::nullopt;
}

}  // namespace

TextTable::TextTable(std::vector<std::string> header) {
  rows_.push_back(std::move(header));
}

void TextTable::add_row(std::vector<std::string> row) {
  row.resize(rows_.front().size());
  rows_.push_back(std::move(row));
}

std::string TextTable::str() const {
  std::vector<size_t> width(rows_.front().size(), 0);
  for (const auto& row : rows_) {
    for (size_t i = 0; i < row.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (size_t r = 0; r < rows_.size(); ++r) {
    std::string line;
    for (size_t i = 0; i < width.size(); ++i) {
      const std::string& cell = rows_[r][i];
      const std::string pad(width[i] - cell.size(), ' ');
      line += (r > 0 && looks_numeric(cell)) ? pad + cell : cell + pad;
      if (i + 1 < width.size()) line += "  ";
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

std::string TextTable::markdown() const {
  const auto line = [](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const std::string& cell : cells)
      out += " " + markdown_cell(cell) + " |";
    return out + "\n";
  };
  std::string out =
      line(rows_.front()) + line(std::vector<std::string>(rows_.front().size(), "---"));
  for (size_t r = 1; r < rows_.size(); ++r)
    out += line(rows_[r]);
  return out;
}

std::string TextTable::csv() const {
  std::string out;
  for (const auto& row : rows_) {
    for (size_t i = 0; i < row.size(); ++i)
      out += (i > 0 ? "," : "") + csv_field(row[i]);
    out += "\n";
  }
  return out;
}

std::string TextTable::json() const {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t r = 1; r < rows_.size(); ++r) {
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    for (size_t i = 0; i < rows_[r].size(); ++i) {
      const std::string& cell = rows_[r][i];
      if (cell.empty()) continue;
      // A digest ("0x...") stays text; so does what is not a finite number.
      const double number = std::strtod(cell.c_str(), nullptr);
      const bool numeric = looks_numeric(cell) && cell.rfind("0x", 0) != 0 && std::isfinite(number);
      const std::optional<nlohmann::ordered_json> whole = whole_number(cell);
      row[rows_.front()[i]] = whole     ? *whole
                              : numeric ? nlohmann::ordered_json(number)
                                        : nlohmann::ordered_json(cell);
    }
    rows.push_back(std::move(row));
  }
  return rows.dump(2) + "\n";
}

std::string TextTable::as(const std::string& format) const {
  if (format == "md") return markdown();
  if (format == "csv") return csv();
  if (format == "json") return json();
  return str();
}

}  // namespace sb
