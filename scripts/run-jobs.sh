#!/usr/bin/env bash
# Runs job files one after another, each resuming its results file, within an optional time
# budget: when the budget runs out the running sweep is interrupted (its finished points are
# kept) and the rest is left for the next call, which resumes where this one stopped.
#   scripts/run-jobs.sh [--budget SECONDS] [--schedbench PATH] jobs/A.json jobs/B.json ...
# Exit code: 0 all done, 3 some points failed, 130 the budget ran out, 2 bad arguments.
set -uo pipefail
budget=0
exe=build/bin/schedbench
while [ $# -gt 0 ]; do
  case $1 in
    --budget) budget=$2; shift 2 ;;
    --schedbench) exe=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "run-jobs: name at least one job file" >&2; exit 2; }
[[ $budget =~ ^[0-9]+$ ]] || { echo "run-jobs: --budget: '$budget' is not whole seconds" >&2; exit 2; }
end=$((SECONDS + budget))
status=0
for job in "$@"; do
  left=$((end - SECONDS))
  if [ "$budget" -gt 0 ] && [ "$left" -le 5 ]; then
    echo "run-jobs: budget spent before $job"
    exit 130
  fi
  if [ "$budget" -gt 0 ]; then
    timeout -s INT -k 30 "$left" "$exe" sweep "$job" --resume
  else
    "$exe" sweep "$job" --resume
  fi
  rc=$?
  case $rc in
    0) ;;
    3) status=3 ;;
    130 | 124) echo "run-jobs: budget spent during $job"; exit 130 ;;
    *) exit $rc ;;
  esac
done
exit $status
