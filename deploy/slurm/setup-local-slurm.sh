#!/usr/bin/env bash
# Install (if needed) and start a local Slurm cluster for faultline's integration tests:
# munged, one slurmctld and one slurmd per virtual node, all on this host.
#
# Idempotent: safe to run again; daemons already running are left alone, the config is
# rewritten only when it changed (then `scontrol reconfigure`). Needs root and, on a fresh
# machine, apt (Debian/Ubuntu packages slurmctld, slurmd, slurm-client, munge).
# Exits non-zero with a message on stderr when anything cannot be done.
#
# Environment (all optional):
#   FAULTLINE_SLURM_NODES  number of virtual nodes (default 4: node001..node004)
#   FAULTLINE_SLURM_PORT0  first slurmd port (default 17001; node i listens on PORT0+i-1)
set -euo pipefail

NODES="${FAULTLINE_SLURM_NODES:-4}"
PORT0="${FAULTLINE_SLURM_PORT0:-17001}"
CONF_DIR=/etc/slurm
CONF="$CONF_DIR/slurm.conf"
HOST="$(hostname -s)"

die() { echo "setup-local-slurm: $*" >&2; exit 1; }
log() { echo "setup-local-slurm: $*" >&2; }

[ "$(id -u)" = 0 ] || die "must run as root (installs packages, starts daemons)"

install_packages() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
     && command -v scontrol >/dev/null && command -v munged >/dev/null; then
    return 0
  fi
  command -v apt-get >/dev/null || die "slurm is not installed and apt-get is not available"
  log "installing slurmctld slurmd slurm-client munge with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2 || die "apt-get update failed"
  apt-get install -y -q --no-install-recommends slurmctld slurmd slurm-client munge >&2 \
    || die "apt-get install slurmctld slurmd slurm-client munge failed"
}

start_munge() {
  if [ ! -s /etc/munge/munge.key ]; then
    log "creating /etc/munge/munge.key"
    if command -v mungekey >/dev/null; then mungekey --create --force >&2
    else dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none; fi
  fi
  chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  chmod 0755 /run/munge
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then return 0; fi
  log "starting munged"
  runuser -u munge -- /usr/sbin/munged --force || die "munged failed to start"
  for _ in $(seq 1 50); do
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  die "munged started but munge -n | unmunge fails"
}

render_conf() {
  local last; last=$(printf '%03d' "$NODES")
  cat <<CONF
# Written by deploy/slurm/setup-local-slurm.sh: a local test cluster, not for production.
ClusterName=faultline
SlurmctldHost=${HOST}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
RebootProgram=/bin/true
ResumeTimeout=600
SlurmctldPort=6817
StateSaveLocation=/var/spool/slurmctld-faultline
SlurmdSpoolDir=/var/spool/slurmd-faultline/%n
SlurmctldPidFile=/run/slurmctld-faultline.pid
SlurmdPidFile=/run/slurmd-faultline-%n.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd-%n.log
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=node[001-${last}] NodeHostname=${HOST} NodeAddr=127.0.0.1 Port=[${PORT0}-$((PORT0 + NODES - 1))] CPUs=1 RealMemory=64 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
}

write_conf() {
  mkdir -p "$CONF_DIR" /var/spool/slurmctld-faultline /var/log/slurm
  local new; new=$(render_conf)
  if [ -f "$CONF" ] && [ "$(cat "$CONF")" = "$new" ]; then echo same; return 0; fi
  printf '%s\n' "$new" > "$CONF"
  echo changed
}

ctld_up() { scontrol ping 2>/dev/null | grep -q 'is UP'; }

start_slurmctld() {
  local changed="$1"
  if ctld_up; then
    [ "$changed" = changed ] && { log "config changed: scontrol reconfigure"; scontrol reconfigure >&2 || true; }
    return 0
  fi
  log "starting slurmctld"
  slurmctld -i >&2 || die "slurmctld failed to start; see /var/log/slurm/slurmctld.log"
  for _ in $(seq 1 100); do ctld_up && return 0; sleep 0.2; done
  die "slurmctld did not answer scontrol ping; see /var/log/slurm/slurmctld.log"
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

start_slurmds() {
  local i name
  for i in $(seq 1 "$NODES"); do
    name=$(printf 'node%03d' "$i")
    mkdir -p "/var/spool/slurmd-faultline/$name"
    alive "/run/slurmd-faultline-$name.pid" && continue
    log "starting slurmd -N $name"
    slurmd -N "$name" >&2 || die "slurmd -N $name failed; see /var/log/slurm/slurmd-$name.log"
  done
}

wait_nodes_up() {
  local state
  for _ in $(seq 1 150); do
    # %t: compact state; every node must have registered (not down/unknown/not responding)
    state=$(sinfo -h -N -o '%N %t' 2>/dev/null || true)
    if [ -n "$state" ] && ! grep -Eq ' (down|unk|idle\*|drain\*|mix\*|alloc\*|down\*|unk\*)' <<<"$state"; then
      echo "$state" >&2; return 0
    fi
    sleep 0.2
  done
  echo "$state" >&2
  die "nodes did not come up within 30 s; see /var/log/slurm/"
}

install_packages
start_munge
start_slurmctld "$(write_conf)"
start_slurmds
wait_nodes_up
log "ready: $(scontrol ping | head -1)"
