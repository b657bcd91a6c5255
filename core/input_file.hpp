// Reading a file a user named as input (a job file, a cross-section file): only a regular file
// is read, so a directory, a device (/dev/zero) or a FIFO is reported as such at once instead of
// read as text, read forever or waited on.
#pragma once

#include <cstddef>
#include <string>

namespace sb {

// The whole of `path`, less a UTF-8 byte-order mark at its start. UsageError naming the path and `what` ("job file") where it is missing,
// unreadable, not a regular file or above `max_bytes`.
std::string read_input_file(const std::string& path, const std::string& what, size_t max_bytes);

}  // namespace sb
