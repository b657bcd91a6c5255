// The schedbench command line.
#pragma once

namespace sb {

// Parses and runs one command; returns the process exit code (README: "Exit codes").
int cli_main(int argc, char** argv);

}  // namespace sb
