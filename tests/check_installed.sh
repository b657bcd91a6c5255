#!/usr/bin/env bash
# Installs a built schedbench into a fresh prefix and uses it as another CMake project would
# (docs/design.md §12): the installed tool and point runner start from the prefix, the package
# names no path of this machine, every shipped scheduler's source finds the headers it includes
# in the prefix, and examples/out_of_tree, configured with -DCMAKE_PREFIX_PATH= the prefix moved
# elsewhere, builds its own sim slab and the example sim walk on schedbench's schedulers (nvcc
# builds the GPU ones) with its own schedbench, whose CPU engines it runs against each other, and
# walk_check, which runs the example engine against cpu-serial. Installs what is built (no
# rebuild of schedbench); runs on the CPU.
# Usage: check_installed.sh BUILD_DIR SOURCE_DIR WORK_DIR [SCHEDULERS] [COMPILER_LAUNCHER]
# SCHEDULERS, comma-separated (e.g. cpu_serial,cpu_openmp,dynamic_warp), builds only those; empty
# or absent: every one.
# $CMAKE names the cmake to run (ctest passes the one that configured the build), else cmake.
set -euo pipefail
cmake=${CMAKE:-cmake}
build=$(realpath "$1") source=$(realpath "$2") work=$(realpath -m "$3")
schedulers=${4:-} launcher=${5:-}
schedulers=${schedulers//,/;}
rm -rf "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >/dev/null

# The tool and the point runner start from the prefix (their carried libraries found through the
# installed RPATH: a missing one fails with 127, where the point runner without arguments prints
# its usage, exit 2), and the data a run reads is there.
"$prefix/bin/schedbench" list >/dev/null
rc=0
"$prefix/bin/schedbench-point" >/dev/null 2>&1 || rc=$?
if [ "$rc" -ne 2 ]; then
  echo "check_installed: $prefix/bin/schedbench-point did not start (exit $rc)" >&2
  exit 1
fi
if [ ! -f "$prefix/data/lxcat-siglo.txt" ]; then
  echo "check_installed: $prefix/data/lxcat-siglo.txt is missing" >&2
  exit 1
fi

# The package is relocatable: its files name no path of this build or source tree, and its
# targets none of the archives they link (its configuration finds those where it is used).
if grep -lE "$build|$source" "$prefix"/lib/cmake/schedbench/*.cmake ||
  grep -lE "lib(fftw3|gif|gomp)\.a" "$prefix"/lib/cmake/schedbench/schedbenchTargets*.cmake; then
  echo "check_installed: the package files above name a path of the build machine" >&2
  exit 1
fi

# Every shipped scheduler's source (built below or not) finds each header it includes by a quoted
# path, and each of theirs, in the prefix: beside it or under include/, as the package's targets
# put them on the include path. Conditional includes count too (stricter than a preprocessor),
# except the branch for the in-tree example sims (SB_EXAMPLE_SIMS), which the test programs of
# the source tree alone define: an installed build always names its own sims' header.
python3 - "$prefix" <<'PY'
import pathlib, re, sys
prefix = pathlib.Path(sys.argv[1])
include = prefix / "include"
sources = sorted((prefix / "share" / "schedbench" / "schedulers").rglob("*.c*"))
quoted = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
in_tree_only = re.compile(r'^\s*#\s*(?:el)?if\s+defined\(SB_EXAMPLE_SIMS\).*?(?=^\s*#\s*(?:el|endif))',
                          re.M | re.S)
missing, seen, todo = [], set(), [(s, s) for s in sources]
while todo:
    path, origin = todo.pop()
    for name in quoted.findall(in_tree_only.sub('', path.read_text())):
        found = next((c for c in (path.parent / name, include / name) if c.is_file()), None)
        if found is None:
            missing.append(f"{name} (included by {path.relative_to(prefix)})")
        elif found.resolve() not in seen:
            seen.add(found.resolve())
            todo.append((found, origin))
if len(sources) < 10 or missing:
    sys.exit(f"check_installed: {len(sources)} scheduler sources in the prefix; headers they "
             f"include that it lacks: {', '.join(sorted(set(missing))) or 'none'}")
PY

# ... and the project below builds against it moved elsewhere.
mv "$prefix" "$work/moved"
prefix=$work/moved

launch=()
if [ -n "$launcher" ]; then
  launch=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_CUDA_COMPILER_LAUNCHER="$launcher")
fi
"$cmake" -S "$source/examples/out_of_tree" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DSLAB_SCHEDULERS="$schedulers" "${launch[@]}" >/dev/null
"$cmake" --build "$work/build" -j 2 >/dev/null
"$work/build/walk_check"

# The project's own command line: its sims in the catalog, and run like any shipped sim.
cli=$work/build/bin/schedbench
fail() { echo "check_installed: $*" >&2; exit 1; }
"$cli" list | grep -q '^slab ' || fail "$cli list does not name the project's sim slab"
for engine in cpu-serial cpu-openmp; do
  "$cli" run --sim slab --scheduler "$engine" --init-n 4000 --steps 60 --slab-width 6 \
    --json "$work/slab-$engine.json" >/dev/null
done
python3 - "$work/slab-cpu-serial.json" "$work/slab-cpu-openmp.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["result"] for p in sys.argv[1:])
counts = a["counts"]
if counts["spawned"] == 0 or counts["removed"] == 0 or counts["final"] == 0:
    sys.exit(f"check_installed: slab's neutrons must split, die and survive: {counts}")
# slots_used is each engine's own: cpu-openmp's threads reuse the slots of the dead as they come.
same = lambda r: (r["digest"], {k: v for k, v in r["counts"].items() if k != "slots_used"})
if same(a) != same(b):
    sys.exit(f"check_installed: slab on cpu-openmp differs from cpu-serial: {b['counts']}")
print(f"slab: cpu-openmp gives cpu-serial's digest {a['digest']} ({counts['final']} left)")
PY
# A shipped sim reads its data from the moved prefix.
"$cli" run --sim air --scheduler cpu-serial --init-n 100 --reduced-field 100 >/dev/null
# A bad value of the project's own parameter: one line, exit 2.
rc=0
"$cli" run --sim slab --scheduler cpu-serial --init-n 10 --steps 10 --fission-chance 80 >/dev/null 2>"$work/err.txt" ||
  rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--fission-chance 80" "$work/err.txt" ||
  fail "--fission-chance 80 with the default --absorb-chance: exit $rc, $(cat "$work/err.txt")"
# A job naming the project's sim, swept through its own point runner.
cat >"$work/slab-job.json" <<'JSON'
{"name": "slab-engines", "sims": ["slab"], "schedulers": ["cpu-serial", "cpu-openmp"],
 "repetitions": 1, "warmup": 0, "axes": [{"init_n": 2000, "steps": 40}]}
JSON
"$cli" sweep "$work/slab-job.json" --out "$work/slab-sweep.json" >/dev/null
python3 - "$work/slab-sweep.json" <<'PY'
import json, sys
points = json.load(open(sys.argv[1]))["points"]
digests = {p.get("digest") for p in points}
if len(points) != 2 or any(p["status"] != "ok" for p in points) or len(digests) != 1:
    sys.exit(f"check_installed: the slab job's 2 points gave digests {digests}")
PY
