// Results are written whole or not at all: to a temporary file beside the target, flushed to
// disk, then renamed over it. A crash leaves either the old file or the new one.
#pragma once

#include <sys/types.h>

#include <stdexcept>
#include <string>

namespace sb {

// A file could not be written (disk full, read-only, the path turned into something that is not
// a regular file): exit code 3. The message names the path and the system's reason.
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `text` to `path` (a regular file or a new name: output_path.hpp), making missing parent
// folders; `mode` before the umask. Throws WriteError; the temporary file never outlives it.
void write_file_atomically(const std::string& path, const std::string& text, mode_t mode = 0644);

// Makes a write past the process's file-size limit (ulimit -f) fail with EFBIG, reported as any
// failed write (exit 3, no partial file), rather than let SIGXFSZ kill the process mid-write.
// Each program calls it first.
void fail_writes_past_size_limit();

}  // namespace sb
