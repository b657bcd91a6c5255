#include "harness/io/text_table.hpp"

#include <algorithm>
#include <cstdlib>

namespace sb {
namespace {

// A number or a hex digest: the whole cell parses.
bool looks_numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return *end == '\0';
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

}  // namespace sb
