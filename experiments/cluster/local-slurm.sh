#!/bin/bash
# Sets up and starts a single-node Slurm on this Debian machine, to try the cluster recipe
# (test-recipe.sh) without a cluster. Run as root:
#
#   experiments/cluster/local-slurm.sh         # install, configure and start (idempotent)
#   experiments/cluster/local-slurm.sh stop    # stop slurmctld, slurmd and munged
#
# It installs slurm-wlm and munge with apt-get if they are missing, writes
# /etc/slurm/slurm.conf (one node, this machine, with the CPUs and memory `slurmd -C`
# finds; it refuses to replace a slurm.conf it did not write), and starts munged,
# slurmctld and slurmd by hand, as on a machine without systemd. Processes are tracked
# with proctrack/linuxproc and tasks are not confined (task/none), since containers and
# sandboxes often have no systemd or writable cgroups. Accounting is off, so `sacct` has
# nothing to show; squeue, sinfo, scontrol and the job logs work. Daemon logs are in
# /var/log/slurm and /var/log/munge.
set -euo pipefail

conf=/etc/slurm/slurm.conf
marker="# Written by agon's experiments/cluster/local-slurm.sh: a single-node Slurm for tests."

say() { echo "local-slurm: $*"; }
die() {
    echo "local-slurm: $*" >&2
    exit 1
}

# Whether the process named in pid file $1 is alive.
running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() {
    if running /run/slurmctld.pid; then
        scontrol shutdown
        say "asked slurmctld and slurmd to shut down"
    elif running /run/slurmd.pid; then
        kill "$(cat /run/slurmd.pid)"
        say "stopped slurmd"
    fi
    if running /run/munge/munged.pid; then
        kill "$(cat /run/munge/munged.pid)"
        say "stopped munged"
    fi
}

if [ "$(id -u)" -ne 0 ]; then
    die "run me as root (I install packages and start daemons)"
fi
case "${1:-start}" in
    start) ;;
    stop)
        stop
        exit 0
        ;;
    *) die "usage: $0 [start|stop]" ;;
esac

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge
fi

# munge: the key (the package usually creates it) and the daemon, as user munge.
if [ ! -s /etc/munge/munge.key ]; then
    runuser -u munge -- mungekey --create
fi
install -d -o munge -g munge -m 0755 /run/munge
install -d -o munge -g munge -m 0700 /var/log/munge /var/lib/munge
if ! running /run/munge/munged.pid; then
    runuser -u munge -- munged
    say "started munged"
fi
for _ in $(seq 1 20); do
    if munge -n </dev/null | unmunge >/dev/null 2>&1; then
        break
    fi
    sleep 0.5
done
munge -n </dev/null | unmunge >/dev/null || die "munge does not work; see /var/log/munge/munged.log"

# slurm.conf: this machine as the only node; the node line is what slurmd measures.
host=$(hostname -s)
node=$(slurmd -C | head -n 1)
case "$node" in
    NodeName=*) ;;
    *) die "slurmd -C did not describe this machine: $node" ;;
esac
wanted="$marker
ClusterName=agon-local
SlurmctldHost=${host}(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP"
if [ -e "$conf" ] && [ "$(head -n 1 "$conf")" != "$marker" ]; then
    die "$conf exists and was not written by me; I leave it alone (move it away to use me)"
fi
changed=no
if [ ! -e "$conf" ] || [ "$(cat "$conf")" != "$wanted" ]; then
    printf '%s\n' "$wanted" >"$conf"
    changed=yes
    say "wrote $conf"
fi
install -d -o slurm -g slurm -m 0755 /var/lib/slurm/slurmctld /var/log/slurm
install -d -m 0755 /var/lib/slurm/slurmd

if ! running /run/slurmctld.pid; then
    slurmctld
    say "started slurmctld"
elif [ "$changed" = yes ]; then
    scontrol reconfigure
    say "slurmctld re-read $conf"
fi
if ! running /run/slurmd.pid; then
    slurmd
    say "started slurmd"
fi

# Wait for the node to be usable; a node left down or drained by an earlier run is
# resumed.
for _ in $(seq 1 60); do
    state=$(sinfo -h -N -n "$host" -o %T 2>/dev/null || true)
    case "$state" in
        idle* | mixed* | allocated* | completing*)
            say "node $host is $state: $(sinfo -h -N -n "$host" -o '%c CPUs, %m MB')"
            exit 0
            ;;
        down* | drain*)
            scontrol update nodename="$host" state=resume || true
            ;;
    esac
    sleep 1
done
die "node $host did not come up (state '${state:-unknown}'); see /var/log/slurm/"
