// A plain text table: columns padded to their widest cell, numbers right-aligned.
#pragma once

#include <string>
#include <vector>

namespace sb {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  void add_row(std::vector<std::string> row);
  std::string str() const;

 private:
  std::vector<std::vector<std::string>> rows_;  // rows_[0] is the header
};

}  // namespace sb
