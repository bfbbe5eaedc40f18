#!/bin/bash
# A single-node Slurm cluster on this machine, without systemd: to try the
# Slurm recipe (slurm-array.sh) before using a real cluster, and for CI
# (.ci/run starts it, runs slurm-check.sh, and stops it).
#
#   bash docs/cluster/slurm-local.sh up     # install (Debian) and start; waits until the node is idle
#   bash docs/cluster/slurm-local.sh down   # cancel every job, stop the daemons; nothing is left running
#
# Run it as root on Debian (or with sudo). "up" installs Debian's slurmctld,
# slurmd, slurm-client and munge when they are missing (apt-get update
# first), writes /etc/slurm/slurm.conf — a one-node cluster whose node line
# is what "slurmd -C" reports for this machine — and starts munged (as the
# munge user), slurmctld and slurmd, all on 127.0.0.1. It refuses to replace
# a slurm.conf it did not write. No accounting daemon: "sacct" has nothing,
# use "squeue" and "scontrol show job". Logs: /var/log/slurm/.
#
# Choices that avoid hangs and failures in containers and small VMs:
# SlurmctldHost=<hostname>(127.0.0.1) and NodeAddr=127.0.0.1 (no name
# resolution), SlurmUser=root, ProctrackType=proctrack/linuxproc and
# TaskPlugin=task/none (no cgroups). AuthInfo=cred_expire=15: a requeued
# job (a preempted one, "scontrol requeue") may start again after 15 s
# rather than Slurm's default 120 s.
set -euo pipefail

CONF=/etc/slurm/slurm.conf
MARK="# written by greedytl docs/cluster/slurm-local.sh"
LOGDIR=/var/log/slurm
CTLD_PID=/run/slurmctld.pid
SLURMD_PID=/run/slurmd.pid
MUNGE_PID=/run/munge/munged.pid

if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi

say() { echo "slurm-local: $*" >&2; }
die() { say "$*"; exit 1; }

# waitfor SECONDS DESCRIPTION COMMAND...: run COMMAND every half second until
# it succeeds; fail after SECONDS.
waitfor() {
  local limit=$1 what=$2; shift 2
  local end=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || die "timed out after ${limit}s waiting for $what (logs in $LOGDIR)"
    sleep 0.5
  done
}

# alive PID: whether process PID runs (a zombie, exited but not yet reaped,
# does not).
alive() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# running PIDFILE: whether the process of PIDFILE runs.
running() {
  local pid
  pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] && alive "$pid"
}

# stop PIDFILE NAME: SIGTERM the process of PIDFILE and wait for it to exit.
stop() {
  local pidfile=$1 name=$2 pid
  pid=$(cat "$pidfile" 2>/dev/null) || pid=""
  if [ -n "$pid" ] && alive "$pid"; then
    say "stopping $name"
    $SUDO kill -TERM "$pid" 2>/dev/null || true
    local end=$((SECONDS + 20))
    while alive "$pid"; do
      if [ $SECONDS -ge $end ]; then
        say "$name did not stop in 20s: SIGKILL"
        $SUDO kill -KILL "$pid" 2>/dev/null || true
        break
      fi
      sleep 0.2
    done
  fi
  $SUDO rm -f "$pidfile"
}

install_packages() {
  local missing=()
  for p in slurmctld slurmd slurm-client munge; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} = 0 ] && return
  say "installing ${missing[*]}"
  # Keep the packages' scripts from starting the daemons: this script
  # starts them itself, without systemd.
  local policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
    $SUDO chmod 755 "$policy"
  fi
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
  [ -z "$policy" ] || $SUDO rm -f "$policy"
}

write_conf() {
  if [ -e "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
    die "$CONF exists and was not written by this script: not replacing it"
  fi
  local host node
  host=$(hostname -s)
  # slurmd -C prints this machine's node line: NodeName=… CPUs=… RealMemory=…
  node=$($SUDO slurmd -C | head -n 1)
  case "$node" in NodeName=*) ;; *) die "unexpected 'slurmd -C' output: $node" ;; esac
  $SUDO mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$LOGDIR"
  $SUDO tee "$CONF" >/dev/null <<EOF
$MARK
ClusterName=local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=cred_expire=15
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

up() {
  install_packages
  write_conf
  if [ ! -s /etc/munge/munge.key ]; then
    say "creating the munge key"
    $SUDO mungekey --create --keyfile=/etc/munge/munge.key
    $SUDO chown munge:munge /etc/munge/munge.key
    $SUDO chmod 400 /etc/munge/munge.key
  fi
  $SUDO mkdir -p /run/munge
  $SUDO chown munge:munge /run/munge
  $SUDO chmod 755 /run/munge
  if ! running "$MUNGE_PID"; then
    say "starting munged"
    $SUDO runuser -u munge -- /usr/sbin/munged --pid-file="$MUNGE_PID"
  fi
  waitfor 20 munged bash -c 'munge -n | unmunge'
  if ! running "$CTLD_PID"; then
    say "starting slurmctld"
    # -c: start from a clean state (no jobs from an earlier run).
    $SUDO slurmctld -c
  fi
  waitfor 30 slurmctld scontrol ping
  if ! running "$SLURMD_PID"; then
    say "starting slurmd"
    $SUDO slurmd
  fi
  waitfor 30 "the node to be idle" bash -c '[ "$(sinfo -h -N -o %t)" = idle ]'
  sinfo -N -o '%N %t %c CPUs %m MB' >&2
  say "up"
}

down() {
  if command -v squeue >/dev/null 2>&1 && running "$CTLD_PID"; then
    local jobs
    jobs=$(squeue -h -o %A || true)
    if [ -n "$jobs" ]; then
      say "cancelling jobs: $(echo $jobs)"
      # shellcheck disable=SC2086
      scancel $jobs || true
      local end=$((SECONDS + 30))
      while [ -n "$(squeue -h -o %A 2>/dev/null)" ] && [ $SECONDS -lt $end ]; do sleep 0.5; done
    fi
  fi
  stop "$SLURMD_PID" slurmd
  stop "$CTLD_PID" slurmctld
  stop "$MUNGE_PID" munged
  say "down"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
