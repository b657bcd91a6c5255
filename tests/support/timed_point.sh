#!/usr/bin/env bash
# A point runner whose times are planted, for tests of what `compare` and `schedbench ab` make of
# times (tests/cpu/test_ab.cpp): `timed_point.sh REAL_POINT MS REQUEST RESULT` runs REAL_POINT on
# the request, so that its counts and digest are real, then records every repetition as MS
# milliseconds, so that the verdicts cannot depend on how busy the machine is.
set -eu
real=$1
ms=$2
"$real" "$3" "$4"
python3 - "$4" "$ms" <<'PY'
import json, os, sys
path, ms = sys.argv[1], float(sys.argv[2])
with open(path) as f:
    record = json.load(f)
for point in record if isinstance(record, list) else [record]:
    if "repetitions_ms" not in point:
        continue
    point["repetitions_ms"] = [ms] * len(point["repetitions_ms"])
    stats = point.get("stats", {})
    for key in ("median_ms", "mean_ms", "min_ms", "max_ms", "median_lo_ms", "median_hi_ms"):
        if key in stats:
            stats[key] = ms
    for key in ("stddev_ms", "cv", "noise"):
        if key in stats:
            stats[key] = 0.0
    if "noisy" in point:
        point["noisy"] = False
with open(path + ".tmp", "w") as f:
    json.dump(record, f)
os.replace(path + ".tmp", path)
PY
