// Where schedbench may write (README: "Output files"). Every file it writes is a regular file
// or a new name, never a device, FIFO, socket, directory or symbolic link, so that a result can
// never replace something that is not a result. Every output option is checked by these before
// any work starts; write_file_atomically checks the file again when it commits it. Missing
// parent folders are not an error: they are made when the first file is written into them, so
// a command that fails before it writes leaves no folder behind.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace sb {

// Why `path` cannot be written as a file ("'x' is a FIFO; accepted: ..."), or "" if it can.
std::string output_file_problem(const std::string& path);
// Why `path` cannot hold output files, or "" if it can: it must be a directory or a new name.
std::string output_dir_problem(const std::string& path);

// Throws UsageError "OPTION: problem". With `refuse_existing`, an existing file is a problem
// too, which `--overwrite` lifts.
void check_output_file(const std::string& option, const std::string& path,
                       bool refuse_existing = false);
void check_output_dir(const std::string& option, const std::string& path);

// The same checks on options as they are parsed (CLI11 names the option in the error).
CLI::Validator output_file();
CLI::Validator output_dir();

}  // namespace sb
