#include "harness/cli/cli.hpp"

int main(int argc, char** argv) {
  return sb::cli_main(argc, argv);
}
