// Reading a JSON file a user gave (a job, a request, a results file): a missing file, one that is
// not a regular file (a directory, a device) or bad JSON is bad input, a UsageError naming the
// file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace sb {

// The deepest nesting of arrays and objects a document read here may have: far deeper than any
// schedbench reads or writes (a results file nests a job file in 3 levels, a job file 4 levels),
// and shallow enough for the code that copies, compares and prints a document, which recurses
// once per level.
inline constexpr int kMaxJsonDepth = 100;

// The JSON document `text` (a file's contents, a line of a pipe, an option's value): UsageError
// "`where`: not valid JSON (why)" for bad JSON, for a NUL byte anywhere (nlohmann's parser reads
// one as the end of the text and would take what stands before it, ignoring the rest) and for
// nesting deeper than kMaxJsonDepth.
nlohmann::ordered_json parse_json_text(const std::string& text, const std::string& where);

// `what` names the file's role in the message: "cannot read the job file".
nlohmann::ordered_json read_json_file(const std::string& path, const std::string& what);

}  // namespace sb
