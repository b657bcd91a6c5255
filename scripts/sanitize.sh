#!/usr/bin/env bash
# Runs compute-sanitizer's memcheck, racecheck and synccheck over every GPU scheduler (and the
# bound) on a small mvp run, and memcheck on a small toy run; prints a table and exits 1 if any
# tool reported an error. Needs a CUDA device and compute-sanitizer on the PATH.
#   scripts/sanitize.sh [path/to/schedbench] [scheduler ...]   (default: every GPU scheduler)
set -uo pipefail
exe=${1:-build/bin/schedbench}
shift || true
only=("$@")
command -v compute-sanitizer >/dev/null || { echo "sanitize: compute-sanitizer not found" >&2; exit 2; }

mvp=(run --sim mvp --init-n 3000 --steps 80 --split-chance 2 --capacity 20000 --block-size 64)
toy=(run --sim toy --init-n 400 --layout column --steps 900 --capacity 20000 --block-size 64)
status=0
printf '%-22s %-5s %-10s %s\n' scheduler sim tool errors
[ ${#only[@]} -gt 0 ] || only=($("$exe" list | awk '$2 == "gpu" || $2 == "yardstick" {print $1}'))
for scheduler in "${only[@]}"; do
  for check in mvp:memcheck mvp:racecheck mvp:synccheck toy:memcheck; do
    sim=${check%%:*} tool=${check#*:}
    if [ "$sim" = mvp ]; then args=("${mvp[@]}"); else args=("${toy[@]}"); fi
    out=$(compute-sanitizer --tool "$tool" --error-exitcode 99 "$exe" "${args[@]}" --scheduler "$scheduler" 2>&1)
    rc=$?
    # memcheck and synccheck end with "ERROR SUMMARY: N errors", racecheck with
    # "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
    errors=$(sed -n -e 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' \
                    -e 's/.*RACECHECK SUMMARY: .*(\([0-9]*\) errors.*/\1/p' <<<"$out" | tail -n 1)
    if [ "$rc" -ne 0 ] || [ "${errors:-missing}" != 0 ]; then
      status=1
      printf '%s\n' "$out" | tail -n 30 >&2
    fi
    printf '%-22s %-5s %-10s %s\n' "$scheduler" "$sim" "$tool" "${errors:-no summary (exit $rc)}"
  done
done
exit $status
