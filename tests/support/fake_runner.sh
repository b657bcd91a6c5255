#!/usr/bin/env bash
# A stand-in for schedbench-point in the sweep tests: `fake_runner.sh REAL_RUNNER REQUEST RESULT`.
# A point whose configuration has seed 13 crashes (SIGSEGV, as a GPU fault or a bug would end
# it); seed 14 hangs; every other point runs with the real runner.
set -u
real=$1
request=$2
if grep -q '"seed": 13' "$request"; then kill -SEGV $$; fi
if grep -q '"seed": 14' "$request"; then exec sleep 600; fi
exec "$real" "$request" "$3"
