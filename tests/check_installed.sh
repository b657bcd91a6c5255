#!/usr/bin/env bash
# Installs a built schedbench into a fresh prefix and uses it as another CMake project would
# (docs/design.md §11): the installed tool and point runner start from the prefix, and
# examples/out_of_tree, configured with -DCMAKE_PREFIX_PATH=prefix, builds the example sim and
# engine against the package and runs them against cpu-serial. Installs what is built (no rebuild
# of schedbench); CPU only.
# Usage: check_installed.sh BUILD_DIR SOURCE_DIR WORK_DIR [COMPILER_LAUNCHER]
# $CMAKE names the cmake to run (ctest passes the one that configured the build), else cmake.
set -euo pipefail
cmake=${CMAKE:-cmake}
build=$(realpath "$1") source=$(realpath "$2") work=$(realpath -m "$3") launcher=${4:-}
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

launch=()
if [ -n "$launcher" ]; then
  launch=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_CUDA_COMPILER_LAUNCHER="$launcher")
fi
"$cmake" -S "$source/examples/out_of_tree" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" "${launch[@]}" >/dev/null
"$cmake" --build "$work/build" -j 2 >/dev/null
"$work/build/walk_check"
