#!/usr/bin/env bash
# A build 30 % slower than another, for measuring `schedbench ab` on a machine (docs/guide.md,
# "Comparing two builds"): `slower_point.sh REAL_POINT REQUEST RESULT` runs
# REAL_POINT on the request with 1.3 times its steps. A folder's bin/schedbench-point that execs
# it, REAL_POINT named, stands for the slower build.
set -eu
real=$1
request=$2
steps=$(grep -oE '"steps": [0-9]+' "$request" | head -n 1 | grep -oE '[0-9]+$')
slower="$request.slower.json"
sed -E "s/\"steps\": $steps([^0-9]|\$)/\"steps\": $((steps * 13 / 10))\1/" "$request" >"$slower"
exec "$real" "$slower" "$3"
