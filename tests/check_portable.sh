#!/usr/bin/env bash
# Fails if a binary needs a shared library that a machine with only the NVIDIA driver may lack:
# anything beyond glibc's own libraries. (libcuda.so is opened at run time by the static CUDA
# runtime, so it is not a link-time dependency.)
set -euo pipefail
allowed='^(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|ld-linux-aarch64)\.so'
status=0
for bin in "$@"; do
  while read -r lib; do
    if ! [[ "$lib" =~ $allowed ]]; then
      echo "$bin needs $lib, which a driver-only machine may not have" >&2
      status=1
    fi
  done < <(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
done
[ $status -eq 0 ] && echo "portable: $* need only glibc"
exit $status
