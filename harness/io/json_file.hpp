// Reading a JSON file a user gave (a job, a request, a results file): a missing file, one that is
// not a regular file (a directory, a device) or bad JSON is bad input, a UsageError naming the
// file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace sb {

// `what` names the file's role in the message: "cannot read the job file".
nlohmann::ordered_json read_json_file(const std::string& path, const std::string& what);

}  // namespace sb
