// The schedbench command line.
#pragma once

#include <functional>

namespace sb {

// Parses and runs one command; returns the process exit code (README: "Exit codes").
int cli_main(int argc, char** argv);

// An error as one line, "PROGRAM: KIND: WHAT", whatever user text (a value with a line break)
// it quotes.
void print_error(const char* program, const char* kind, const char* what);

// `body`'s exit code, or that of the error it throws (README: "Exit codes"): 2 bad input, 3 a
// failed run or an unwritable output, 1 anything else; the error printed as one line.
int exit_code_of(const char* program, const std::function<int()>& body);

}  // namespace sb
