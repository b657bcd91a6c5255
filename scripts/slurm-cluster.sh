#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for `make test-slurm` (scripts/test-slurm.sh).
#   scripts/slurm-cluster.sh start DIR   writes DIR/slurm.conf and DIR/cgroup.conf for a node with
#                                        this machine's CPUs and memory (no GPU), then starts
#                                        munged, slurmctld and slurmd with their pid files in DIR
#   scripts/slurm-cluster.sh status DIR  which of the three are running; exit 0 if all are
#   scripts/slurm-cluster.sh stop DIR    stops every daemon DIR's pid files name, then the rest
#                                        of what ran there; safe to call twice or after a failed start
# Client commands find the cluster through `export SLURM_CONF=DIR/slurm.conf`. Needs root and the
# Debian packages slurmctld, slurmd, munge and slurm-client (`scripts/install-deps.sh --slurm`);
# it runs the daemons directly, without systemd. Ports: SLURM_TEST_PORT and the next one
# (default 6817, 6818).
set -euo pipefail

say() { printf 'slurm-cluster: %s\n' "$*"; }
die() {
  say "$*" >&2
  exit 1
}

usage() {
  echo "usage: $0 start|status|stop DIR" >&2
  exit 2
}

[ $# -eq 2 ] || usage
action=$1
dir=$2
daemons=(slurmd slurmctld munged) # in the order they are stopped

# Whether process $1 runs: a zombie has ended (where PID 1 does not reap, it stays one).
alive() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) && [ "$state" != Z ]
}

pid_of() {
  local file="$dir/$1.pid"
  [ -s "$file" ] && alive "$(cat "$file")" && cat "$file"
}

# The node as slurmd sees this machine: CPUs, sockets, cores, threads and RealMemory.
node_line() {
  local host=$1
  slurmd -C | head -n1 | sed -e "s/^NodeName=[^ ]*/NodeName=$host NodeAddr=127.0.0.1/"
}

write_config() {
  local host port
  host=$(hostname -s)
  port=${SLURM_TEST_PORT:-6817}
  # A cold start: no jobs or node state of an earlier cluster in DIR.
  rm -rf "$dir/state" "$dir/spool" "$dir/log"
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  cat >"$dir/slurm.conf" <<EOF
# A one-node test cluster written by scripts/slurm-cluster.sh; not for production.
ClusterName=schedbench-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
# No cgroups or systemd here: processes are tracked by their parent ids, tasks are not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerType=sched/backfill
# Keep ended jobs visible to scontrol for a while, so a test can read their state.
MinJobAge=600
$(node_line "$host") State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  cat >"$dir/cgroup.conf" <<EOF
# Read by slurmd; cgroups are not used here (see ProctrackType and TaskPlugin in slurm.conf).
CgroupPlugin=autodetect
IgnoreSystemd=yes
EOF
}

start_munge() {
  # A fresh key for this cluster only; munged refuses keys others can read.
  dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$dir/munge.key"
  munged --force --socket="$dir/munge.socket" --key-file="$dir/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge.seed"
}

wait_until() {
  local what=$1 tries=$2
  shift 2
  for ((i = 0; i < tries; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  die "$what did not come up; logs in $dir/log"
}

node_idle() {
  SLURM_CONF="$dir/slurm.conf" sinfo -h -N -o '%t' | grep -qx 'idle'
}

start() {
  for tool in munged slurmctld slurmd sinfo sbatch; do
    command -v "$tool" >/dev/null || die "$tool not found; scripts/install-deps.sh --slurm installs it"
  done
  [ "$(id -u)" -eq 0 ] || die "needs root (the daemons run as root here)"
  for d in "${daemons[@]}"; do
    [ -z "$(pid_of "$d" || true)" ] || die "$d already runs for $dir; stop it first"
  done
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  write_config
  start_munge
  wait_until munged 20 test -S "$dir/munge.socket"
  # -c: clear any saved state; slurmctld and slurmd daemonise and write their pid files.
  slurmctld -c -f "$dir/slurm.conf"
  wait_until slurmctld 40 env SLURM_CONF="$dir/slurm.conf" scontrol ping
  slurmd -f "$dir/slurm.conf"
  wait_until "the node" 60 node_idle
  say "running: SLURM_CONF=$dir/slurm.conf ($(node_line "$(hostname -s)" | cut -d' ' -f1,3))"
}

status() {
  local down=0
  for d in munged slurmctld slurmd; do
    if pid=$(pid_of "$d"); then
      say "$d: running (pid $pid)"
    else
      say "$d: not running"
      down=1
    fi
  done
  return $down
}

stop_pid() {
  local name=$1 pid=$2
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 40; i++)); do
    alive "$pid" || return 0
    sleep 0.25
  done
  say "$name (pid $pid) ignored SIGTERM for 10 s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
}

# slurmstepd processes of this cluster: slurmd hands them its SLURM_CONF.
steps_of_cluster() {
  local pid
  for pid in $(pgrep -x slurmstepd || true); do
    alive "$pid" && { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null |
      grep -qx "SLURM_CONF=$dir/slurm.conf" && echo "$pid"
  done
}

# `pid` and every process below it, deepest first.
tree_of() {
  local child
  for child in $(pgrep -P "$1" || true); do tree_of "$child"; done
  echo "$1"
}

stop() {
  [ -f "$dir/slurm.conf" ] || return 0
  dir=$(cd "$dir" && pwd)
  # Jobs first, while the daemons can still end them; then whatever steps outlived them.
  if [ -n "$(pid_of slurmctld || true)" ]; then
    SLURM_CONF="$dir/slurm.conf" scancel --full --user=root 2>/dev/null || true
    for ((i = 0; i < 40; i++)); do
      [ -z "$(SLURM_CONF="$dir/slurm.conf" squeue -h 2>/dev/null)" ] && break
      sleep 0.25
    done
  fi
  for d in "${daemons[@]}"; do
    if pid=$(pid_of "$d"); then stop_pid "$d" "$pid"; fi
    rm -f "$dir/$d.pid"
  done
  local step pid
  for step in $(steps_of_cluster); do
    for pid in $(tree_of "$step"); do stop_pid "job step process" "$pid"; done
  done
}

case $action in
  start)
    # A start that fails stops whatever it had started.
    trap 'rc=$?; [ $rc -eq 0 ] || stop; exit $rc' EXIT
    start
    ;;
  status) status ;;
  stop) stop ;;
  *) usage ;;
esac
