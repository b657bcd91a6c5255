#!/usr/bin/env bash
# Fails if a binary needs a shared library that a machine with only the NVIDIA driver may lack.
# Allowed: glibc's own libraries; libraries bundled in the binary's ../lib (found through its
# RPATH); and, for binaries that bundle libraries, the C++ runtime those need (libstdc++ and
# libgcc_s, installed on every Linux distribution). libcuda.so is opened at run time by the
# static CUDA runtime, so it is not a link-time dependency.
set -euo pipefail
glibc='^(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|ld-linux-aarch64)\.so'
status=0
for bin in "$@"; do
  bundle="$(dirname "$bin")/../lib"
  bundles=no
  needed=$(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
  for lib in $needed; do [ -e "$bundle/$lib" ] && bundles=yes; done
  for lib in $needed; do
    if [[ "$lib" =~ $glibc ]] || [ -e "$bundle/$lib" ]; then continue; fi
    if [ $bundles = yes ] && [[ "$lib" =~ ^(libstdc\+\+\.so\.6|libgcc_s\.so\.1)$ ]]; then continue; fi
    echo "$bin needs $lib, which a driver-only machine may not have" >&2
    status=1
  done
  if [ $bundles = yes ] && ! readelf -d "$bin" | grep -q 'R.*PATH.*\$ORIGIN/../lib'; then
    echo "$bin bundles libraries but has no \$ORIGIN/../lib RPATH" >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "portable: $*"
exit $status
