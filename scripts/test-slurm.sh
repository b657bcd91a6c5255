#!/usr/bin/env bash
# `make test-slurm`: `schedbench submit --slurm` end to end on a one-node Slurm cluster of this
# machine (scripts/slurm-cluster.sh), which it starts and, whatever happens, stops.
#   1. a CPU-only job in 2 shards and its merge: the merged results must hold the same points,
#      in the same order and with the same digests, as a plain `schedbench sweep` of the job;
#   2. the same job with its second shard cancelled: the merge must fail, naming that shard;
#   3. a job whose point takes 2 ranks (one simulation over two processes, launched by srun in
#      the job's allocation): its digest must equal the same run's on one rank.
# Needs root; as root it installs Slurm where it is missing (scripts/install-deps.sh --slurm).
# Where the cluster cannot start it prints SKIPPED and exits 0: skipped, never passed.
# Usage: scripts/test-slurm.sh [SCHEDBENCH]   (default build/bin/schedbench)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
schedbench=$(realpath "${1:-$root/build/bin/schedbench}")
checks=3

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

# 3. One simulation on 2 ranks (srun through PMIx, which OpenMPI's ranks join) against 1 rank.
cat >ranks.json <<'EOF'
{"name": "ranks", "sims": ["mvp"], "schedulers": ["cpu-serial"], "repetitions": 1,
 "warmup": 0, "axes": {"init_n": 2001, "steps": 200, "split_chance": 0.5, "ranks": [1, 2]}}
EOF
"$schedbench" submit ranks.json --slurm --time 00:05:00 --out ranks/ranks.json \
  --launcher 'srun --mpi=pmix -n {ranks}' --script ranks.slurm.sh
grep -q -- '--nodes=1 --ntasks-per-node=2' ranks.slurm.sh ||
  fail "ranks.slurm.sh: a job of 2-rank points must ask for 1 node of 2 tasks"
status=0
timeout 240 bash ranks.slurm.sh --wait >ranks.out 2>&1 || status=$?
cat ranks.out
[ "$status" -eq 0 ] || fail "bash ranks.slurm.sh --wait: exit $status"
python3 - ranks/ranks.json <<'EOF' || fail "the 2-rank run differs from the 1-rank run"
import json, sys
points = json.load(open(sys.argv[1]))["points"]
rows = [(p["config"]["ranks"], p["status"], p.get("digest")) for p in points]
assert [r[:2] for r in rows] == [(1, "ok"), (2, "ok")], rows
assert rows[0][2] == rows[1][2], rows
print("test-slurm: 1 and 2 ranks on Slurm give the same digest,", rows[0][2])
EOF
passed=$((passed + 1))
say "passed: one simulation on 2 ranks under srun, equal to 1 rank"

say "$passed of $checks checks passed"
