#!/usr/bin/env bash
# The floors of docs/design.md §2: a file includes only files of its own floor or the floors
# below (core < ranks < fields < sims < schedulers < harness), and inside harness/ only its own folder or those
# below it (io < job < bench < sweep < cli). Prints every include that breaks the rule; exits 1
# if there is one.
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
rank() {  # the rank of a repository path, or nothing for paths outside the floors
  case $1 in
    core/*) echo 0 ;;
    ranks/*) echo 1 ;;
    fields/*) echo 2 ;;
    sims/*) echo 3 ;;
    schedulers/*) echo 4 ;;
    harness/io/*) echo 5 ;;
    harness/job/*) echo 6 ;;
    harness/bench/*) echo 7 ;;
    harness/sweep/*) echo 8 ;;
    harness/cli/*) echo 9 ;;
  esac
}
bad=0
while IFS= read -r file; do
  mine=$(rank "$file")
  while IFS= read -r target; do
    theirs=$(rank "$target")
    if [ -n "$theirs" ] && [ "$theirs" -gt "$mine" ]; then
      echo "check_layers: $file includes $target, a floor above it"
      bad=1
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(find core ranks fields sims schedulers harness -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) | sort)
[ "$bad" -eq 0 ] && echo "check_layers: every include goes to its own floor or one below"
exit $bad
