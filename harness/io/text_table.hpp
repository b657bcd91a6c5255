// A table of text cells, written as plain text (columns padded to their widest cell, numbers
// right-aligned), markdown, CSV (RFC 4180 quoting) or JSON (an object per row, keyed by the
// header; numeric cells as numbers).
#pragma once

#include <string>
#include <vector>

namespace sb {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  void add_row(std::vector<std::string> row);
  std::string str() const;
  std::string markdown() const;
  std::string csv() const;
  std::string json() const;
  // As `format` names: "text", "md", "csv" or "json".
  std::string as(const std::string& format) const;

 private:
  std::vector<std::vector<std::string>> rows_;  // rows_[0] is the header
};

}  // namespace sb
