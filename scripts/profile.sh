#!/usr/bin/env bash
# Nsight Compute counters of each scheduler's kernels on a reduced mvp workload (or another), to
# explain a benchmark: instructions issued per particle-step, average active lanes per
# instruction, achieved occupancy, issue activity and the top stall reasons. Needs ncu and a
# CUDA device.
#   scripts/profile.sh [schedbench] [scheduler ...]
# Writes one CSV per scheduler to $PROFILE_DIR (default profile/) and prints a summary.
# PROFILE_WORKLOAD replaces the workload's arguments, e.g.
#   PROFILE_WORKLOAD='run --sim pic --init-n 1e6 --poisson-steps 3 --mobility-steps 1000 --capacity 3e7'
# PROFILE_METRICS replaces the metrics (fewer take fewer replay passes), e.g.
#   PROFILE_METRICS=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,launch__registers_per_thread
set -uo pipefail
exe=${1:-build/bin/schedbench}
shift || true
schedulers=("$@")
[ ${#schedulers[@]} -gt 0 ] || schedulers=(bound dynamic-warp cpu-sync dynamic-thread)
out=${PROFILE_DIR:-profile}
mkdir -p "$out"
read -r -a workload <<<"${PROFILE_WORKLOAD:-run --sim mvp --init-n 200000 --steps 10000 --split-chance 0.02 --capacity 20000000}"
metrics=${PROFILE_METRICS:-gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_membar.ratio,smsp__average_warp_latency_issue_stalled_branch_resolving.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,smsp__average_warp_latency_issue_stalled_not_selected.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio,smsp__average_warp_latency_issue_stalled_dispatch_stall.ratio,smsp__average_warp_latency_issue_stalled_sleeping.ratio}
kernels='regex:dynamic_warp|balanced_steps|cpu_sync_generation|dynamic_thread|dynamic_block|static_full|gpu_iterate|naive|event_step'
for s in "${schedulers[@]}"; do
  "$exe" "${workload[@]}" --scheduler "$s" | grep -E "particle-steps|time" | sed "s/^/$s: /"
  # Application replay: each pass runs the program again instead of saving and restoring every
  # device allocation around the kernel (the particle array is gigabytes for pic).
  ncu --replay-mode application --metrics "$metrics" --csv --page raw -k "$kernels" --launch-count 4 \
      "$exe" "${workload[@]}" --scheduler "$s" >"$out/$s.csv" 2>"$out/$s.err" ||
    { echo "ncu failed for $s:"; tail -5 "$out/$s.err"; }
done
python3 - "$out" "${schedulers[@]}" <<'PY'
import csv, sys, pathlib
out, names = pathlib.Path(sys.argv[1]), sys.argv[2:]
for name in names:
    path = out / f"{name}.csv"
    lines = [l for l in path.read_text().splitlines() if l.startswith('"')] if path.exists() else []
    if len(lines) < 3:
        print(f"{name}: no kernels profiled"); continue
    rows = list(csv.DictReader(lines))
    for r in rows[1:]:  # rows[0] holds the units
        kernel = r["Kernel Name"].split("(")[0].split("<")[0].split("::")[-1]
        f = lambda k: float(r[k].replace(",", "")) if r.get(k) else float("nan")
        stalls = {k.split("stalled_")[1].split(".")[0]: f(k) for k in r if "stalled_" in k}
        top = sorted(stalls.items(), key=lambda kv: -kv[1])[:4]
        print(f"{name:15s} {kernel:22s} {f('gpu__time_duration.sum')/1e6:8.2f} ms  "
              f"warp-inst {f('smsp__inst_executed.sum'):.3e}  lanes/inst "
              f"{f('smsp__thread_inst_executed.sum')/max(f('smsp__inst_executed.sum'),1):5.1f}  "
              f"occupancy {f('sm__warps_active.avg.pct_of_peak_sustained_active'):5.1f}%  "
              f"issue {f('smsp__issue_active.avg.pct_of_peak_sustained_active'):5.1f}%  "
              f"regs {r.get('launch__registers_per_thread')}  stalls "
              + ", ".join(f"{k} {v:.1f}" for k, v in top))
PY
