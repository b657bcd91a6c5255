// CLI11 checks that the commands' options share.
#pragma once

#include <CLI/CLI.hpp>
#include <set>
#include <string>

namespace sb {

// An option given "" is refused, never taken for "not given" (`--frame-every ""`).
inline CLI::Validator not_empty() {
  return CLI::Validator(
      [](const std::string& text) {
        return text.empty() ? std::string("empty; accepted: a value") : std::string();
      },
      "");
}

// Every option of `app` and of its subcommands that takes a value refuses "" (not_empty), but
// those in `own_checks`, whose own check of the value refuses it and names what is accepted
// (the run parameters'): the commands read an empty value as "not given" (`--interleave ''`,
// `--fail-if-slower ''`), so it must never reach them. Called once every option is added.
inline void refuse_empty_values(CLI::App& app, const std::set<const CLI::Option*>& own_checks) {
  for (CLI::Option* option : app.get_options()) {
    // A type size of 0: a flag.
    if (option->get_type_size() != 0 && own_checks.count(option) == 0) option->check(not_empty());
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    refuse_empty_values(*sub, own_checks);
}

}  // namespace sb
