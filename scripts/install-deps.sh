#!/usr/bin/env bash
# Installs what schedbench needs and is missing; safe to run again (it skips what is present).
#   C++:    Debian packages (CMake, Ninja, compilers, nlohmann/json, fmt, CLI11, GoogleTest, stb
#           for PNG, giflib for GIF output, FFTW for the CPU Poisson solver, OpenMPI for runs over
#           several ranks). The CUDA toolkit (nvcc) must already be on the machine.
#   Python: plot/requirements.txt (matplotlib, pandas ...), the package schedbench_results
#           (python/, installed editable) and scripts/build-requirements.txt (NVML's header for
#           the C++ build) in the virtual environment .venv/.
# With --slurm it also installs Slurm and munge for `make test-slurm` (scripts/slurm-cluster.sh).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
packages=(cmake make ninja-build g++ nlohmann-json3-dev libfmt-dev libcli11-dev libgtest-dev
          libstb-dev libgif-dev libfftw3-dev python3-venv libopenmpi-dev openmpi-bin)
case "${1:-}" in
  "") ;;
  --slurm) packages+=(slurmctld slurmd slurm-client munge) ;;
  *)
    echo "usage: $0 [--slurm]" >&2
    exit 2
    ;;
esac

say() { printf 'install-deps: %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    say "need root (or sudo) to run: $*" >&2
    exit 1
  fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  say "nvcc not found: install the CUDA toolkit (12.4 or newer) first" >&2
  exit 1
fi

# The virtual environment is rebuilt only when a requirements file or the package's
# pyproject.toml changes; the package is installed editable, so edits to its code need no
# reinstall.
venv="$root/.venv"
stamp="$venv/.requirements.sha256"
requirements=("$root/plot/requirements.txt" "$root/scripts/build-requirements.txt")
want=$(cat "${requirements[@]}" "$root/python/pyproject.toml" | sha256sum | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  say "creating $venv from ${requirements[*]#"$root/"} and python/pyproject.toml"
  python3 -m venv "$venv"
  for r in "${requirements[@]}"; do
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$r"
  done
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "$root/python"
  echo "$want" >"$stamp"
fi
