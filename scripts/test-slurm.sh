#!/usr/bin/env bash
# `make test-slurm`: `schedbench submit --slurm` end to end on a one-node Slurm cluster of this
# machine (scripts/slurm-cluster.sh), which it starts and, whatever happens, stops.
#   1. a CPU-only job in 2 shards and its merge: the merged results must hold the same points,
#      in the same order and with the same digests, as a plain `schedbench sweep` of the job;
#   2. the same job with its second shard cancelled: the merge must fail, naming that shard.
# Needs root; as root it installs Slurm where it is missing (scripts/install-deps.sh --slurm).
# Where the cluster cannot start it prints SKIPPED and exits 0: skipped, never passed.
# Usage: scripts/test-slurm.sh [SCHEDBENCH]   (default build/bin/schedbench)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
schedbench=$(realpath "${1:-$root/build/bin/schedbench}")
checks=2

say() { printf 'test-slurm: %s\n' "$*"; }
skip() {
  say "SKIPPED: $*"
  say "0 of $checks checks passed, $checks skipped"
  exit 0
}
fail() {
  say "FAILED: $*" >&2
  say "$passed of $checks checks passed, 1 failed" >&2
  exit 1
}
passed=0

[ -x "$schedbench" ] || { say "$schedbench: not found; make build makes it" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || skip "the test cluster's daemons run as root; run it as root"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null ||
  ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null; then
  "$root/scripts/install-deps.sh" --slurm || skip "Slurm could not be installed"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/schedbench-slurm.XXXXXX")
cluster=$work/cluster
script_group=""
cleanup() {
  # A script still waiting for its merge, and what it started (setsid: its own process group).
  [ -z "$script_group" ] || kill -- "-$script_group" 2>/dev/null || true
  "$root/scripts/slurm-cluster.sh" stop "$cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! "$root/scripts/slurm-cluster.sh" start "$cluster" >"$work/start.log" 2>&1; then
  cat "$work/start.log" >&2
  skip "the one-node cluster could not start ($(tail -n1 "$work/start.log"))"
fi
cat "$work/start.log"
export SLURM_CONF=$cluster/slurm.conf
cpus=$(sinfo -h -N -o '%c' | head -n1)

# Jobs run in $work/run, which the cluster's node (this machine) sees as it is.
mkdir -p "$work/run"
cd "$work/run"
cat >job.json <<'EOF'
{"name": "seeds", "sims": ["mvp"], "schedulers": ["cpu-serial"], "repetitions": 1,
 "warmup": 0, "axes": {"init_n": 2000, "steps": 200, "split_chance": 2, "seed": [1, 2, 3, 4, 5]}}
EOF

# 1. Two shards and their merge, compared with a plain sweep.
"$schedbench" submit job.json --slurm --shards 2 --time 00:05:00 --out merged/seeds.json \
  --script two.slurm.sh
grep -q -- '--cpus-per-task=1' two.slurm.sh && ! grep -q -- '--gres' two.slurm.sh ||
  fail "two.slurm.sh: a CPU-only job must ask for --cpus-per-task and no --gres"
status=0
timeout 240 bash two.slurm.sh --wait >two.out 2>&1 || status=$?
cat two.out
[ "$status" -eq 0 ] || fail "bash two.slurm.sh --wait: exit $status"
grep -q '^merge job [0-9]*: done' two.out || fail "two.out: no line 'merge job N: done'"
"$schedbench" sweep job.json --out plain.json >plain.out 2>&1 || {
  cat plain.out >&2
  fail "the plain sweep failed"
}
python3 - merged/seeds.json plain.json <<'EOF' || fail "the merged results differ from the plain sweep's"
import json, sys
merged, plain = (json.load(open(p)) for p in sys.argv[1:3])
def rows(doc):
    return [(p["label"], p["status"], p.get("digest")) for p in doc["points"]]
assert len(merged["shard"]["merged_from"]) == 2, merged["shard"]
assert rows(merged) == rows(plain), (rows(merged), rows(plain))
assert all(status == "ok" for _, status, _ in rows(plain)), rows(plain)
print("test-slurm: merged == plain sweep:", len(rows(plain)), "points, same labels and digests")
EOF
passed=$((passed + 1))
say "passed: 2 shards on Slurm, merged, equal to a plain sweep"

# 2. The second shard is cancelled before it starts (each shard asks for every core of the
# node, so it waits for the first): the merge must fail and name it.
"$schedbench" submit job.json --slurm --shards 2 --cpus-per-shard "$cpus" --time 00:05:00 \
  --out cancelled/seeds.json --script cancel.slurm.sh
status=0
setsid timeout 240 bash cancel.slurm.sh --wait >cancel.out 2>&1 &
script_group=$!
array=""
for ((i = 0; i < 100; i++)); do
  array=$(sed -n 's/^submitted: 2 shards as job array \([0-9]*\);.*/\1/p' cancel.out)
  [ -z "$array" ] || break
  sleep 0.1
done
[ -n "$array" ] || fail "cancel.out: no line 'submitted: 2 shards as job array N'"
scancel "${array}_2"
wait "$script_group" || status=$?
script_group=""
cat cancel.out
[ "$status" -ne 0 ] || fail "bash cancel.slurm.sh --wait: exit 0 although shard 2 was cancelled"
grep -q 'merge: shard 2 of 2: no file' cancel.out ||
  fail "cancel.out: the merge's log does not name shard 2"
[ ! -e cancelled/seeds.json ] || fail "cancelled/seeds.json: written by a failed merge"
passed=$((passed + 1))
say "passed: a cancelled shard fails the merge, which names it"

say "$passed of $checks checks passed"
