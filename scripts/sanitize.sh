#!/usr/bin/env bash
# Runs compute-sanitizer's memcheck, racecheck and synccheck over every GPU scheduler (and the
# bound) on small mvp, pic and air runs, memcheck on a small toy run, each compaction variant
# once, all three on a pic run wide enough for cpu-sync's warps to hand lanes on and on pic with
# --field poisson and air with --space-charge (32^3 meshes, cuFFT); prints a table
# and exits 1 if any tool reported an error or a run failed. Needs a CUDA device and
# compute-sanitizer on the PATH. Then the field module's kernels (deposition, cuFFT solve, field
# and gather), all three tools, through the GPU tests of the fields (gpu_tests beside schedbench,
# filtered to those suites: 300000 particles on 32^3, solves up to 64^3).
#   scripts/sanitize.sh [path/to/schedbench] [scheduler[:policy] ...]
# (default: every GPU scheduler with its default tuning policy, dynamic-warp:spill and :queue;
# dynamic-warp:regs-80 runs that policy's kernels)
set -uo pipefail
exe=${1:-build/bin/schedbench}
shift || true
only=("$@")
command -v compute-sanitizer >/dev/null || { echo "sanitize: compute-sanitizer not found" >&2; exit 2; }

# Small runs: a watchdog of 60 s (under the sanitizers' slowdown) ends one that does not finish.
mvp=(run --timeout 60 --sim mvp --init-n 3000 --steps 80 --split-chance 2 --capacity 20000 --block-size 64)
toy=(run --timeout 60 --sim toy --init-n 400 --layout column --steps 900 --capacity 20000 --block-size 64)
pic=(run --timeout 60 --sim pic --init-n 500 --poisson-steps 2 --mobility-steps 60 --collision-chance 40 --capacity 40000 --block-size 64)
# Variable time steps: phases of about 90 flights per electron, ionization and attachment.
air=(run --timeout 60 --sim air --init-n 400 --gas N2:0.8,O2:0.2 --reduced-field 300 --phases 2 --phase-time 1e-11 --max-energy 300 --extrapolate constant --capacity 40000 --block-size 64)
# More particles than cpu-sync's resident threads, so that its warps hand lanes on (pool_agent.cuh).
wide=(run --timeout 120 --sim pic --init-n 100000 --poisson-steps 1 --mobility-steps 40 --collision-chance 40 --capacity 2000000 --block-size 64)
status=0
# One row: what ran, the tool, and the errors it reported; a failed run or any error sets status.
report() {  # report ENTRY SIM TOOL RC OUTPUT
  local errors
  # memcheck and synccheck end with "ERROR SUMMARY: N errors", racecheck with
  # "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
  errors=$(sed -n -e 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' \
                  -e 's/.*RACECHECK SUMMARY: .*(\([0-9]*\) errors.*/\1/p' <<<"$5" | tail -n 1)
  if [ "$4" -ne 0 ] || [ "${errors:-missing}" != 0 ]; then
    status=1
    printf '%s\n' "$5" | tail -n 30 >&2
  fi
  printf '%-22s %-11s %-10s %s\n' "$1" "$2" "$3" "${errors:-no summary (exit $4)}"
}
printf '%-22s %-11s %-10s %s\n' scheduler sim tool errors
# dynamic-warp's spill and queue policies run code the default does not (spill_children,
# take_spilled; queue_children, published_slot).
[ ${#only[@]} -gt 0 ] || only=($("$exe" list | awk '$2 == "gpu" || $2 == "yardstick" {print $1}') dynamic-warp:spill dynamic-warp:queue)
for entry in "${only[@]}"; do
  scheduler=${entry%%:*}
  policy=()
  [ "$entry" = "$scheduler" ] || policy=(--policy "${entry#*:}")
  for check in mvp:memcheck mvp:racecheck mvp:synccheck toy:memcheck pic:memcheck pic:racecheck pic:synccheck air:memcheck air:racecheck air:synccheck \
               pic-simple:memcheck pic-block:racecheck pic-warp:racecheck pic-cub:memcheck \
               wide:memcheck wide:racecheck wide:synccheck \
               picfield:memcheck picfield:racecheck picfield:synccheck \
               airsc:memcheck airsc:racecheck airsc:synccheck; do
    sim=${check%%:*} tool=${check#*:}
    case $sim in
      mvp) args=("${mvp[@]}") ;;
      toy) args=("${toy[@]}") ;;
      pic) args=("${pic[@]}") ;;
      # pic's Poisson variant (its own step, the field's deposit, solve and read on the device).
      picfield) args=("${pic[@]}" --field poisson --grid 32) ;;
      air) args=("${air[@]}") ;;
      # air's space-charge variant (its own step, the ions, deposit, open solve and field).
      airsc) args=("${air[@]}" --space-charge --grid 32) ;;
      wide) [ "$scheduler" = cpu-sync ] || continue
            args=("${wide[@]}") ;;
      pic-*) [ "$scheduler" = dynamic-warp ] || continue  # each compaction variant once
             args=("${pic[@]}" --compaction "${sim#pic-}") ;;
    esac
    out=$(compute-sanitizer --tool "$tool" --error-exitcode 99 "$exe" "${args[@]}" --scheduler "$scheduler" "${policy[@]}" 2>&1)
    report "$entry" "$sim" "$tool" $? "$out"
  done
done
fields=(--gtest_filter='*/DeviceDeposition.*:*/DeviceSolve.*:*/DeviceField.*')
for tool in memcheck racecheck synccheck; do
  out=$(compute-sanitizer --tool "$tool" --error-exitcode 99 "$(dirname "$exe")/gpu_tests" "${fields[@]}" 2>&1)
  report fields gpu_tests "$tool" $? "$out"
done
exit $status
