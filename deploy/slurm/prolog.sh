#!/usr/bin/env bash
# Example PrologSlurmctld for faultline: report that Slurm allocated nodes to a job.
#
#   slurm.conf:  PrologSlurmctld=/etc/slurm/faultline-prolog.sh
#
# Runs once per job (and per requeued attempt) on the slurmctld host, at allocation. Emits,
# through `faultline jobs emit`:
#   submitted   (first attempt only, at the job's SubmitTime)
#   scheduled   attempt = SLURM_RESTART_COUNT, placement from SLURM_JOB_NODELIST
#   running     unless FAULTLINE_EMIT_RUNNING=0 (then the training hook `hooks.running()` sends it)
# Event ids are the ones `faultline jobs slurm` gives the same transitions, so running both
# is safe (duplicates carry the same id).
#
# slurmctld runs this with an almost empty environment: settings come from
# /etc/faultline/env (or $FAULTLINE_ENV_FILE) when present, e.g.
#   FAULTLINE_KAFKA_BOOTSTRAP=kafka-1:9092   FAULTLINE_NAMESPACE=faultline.
#   FAULTLINE_BIN=/opt/faultline/bin/faultline   FAULTLINE_RANKS_PER_NODE=8
#   FAULTLINE_JOBS_OUTPUT=/var/log/faultline/jobs.jsonl   (JSON lines instead of Kafka)
# It always exits 0: a failing PrologSlurmctld would requeue or hold the job, and telemetry
# must never do that. Failures are logged with `logger -t faultline`.
set -u

env_file="${FAULTLINE_ENV_FILE:-/etc/faultline/env}"
# shellcheck disable=SC1090
[ -r "$env_file" ] && set -a && . "$env_file" && set +a

bin="${FAULTLINE_BIN:-faultline}"
job="${SLURM_JOB_ID:?SLURM_JOB_ID not set}"
attempt="${SLURM_RESTART_COUNT:-0}"
common=(--job-id "$job" --attempt "$attempt" --cluster "${SLURM_CLUSTER_NAME:-default}")
[ -n "${FAULTLINE_JOBS_OUTPUT:-}" ] && common+=(--output "$FAULTLINE_JOBS_OUTPUT")

emit() {
  timeout "${FAULTLINE_TIMEOUT_S:-15}" "$bin" jobs emit "${common[@]}" "$@" \
    || logger -t faultline "prolog: job $job: 'jobs emit $*' failed" 2>/dev/null || true
}

if [ "$attempt" = 0 ]; then
  submit=$(scontrol show job -o "$job" 2>/dev/null | tr ' ' '\n' | sed -n 's/^SubmitTime=//p')
  when=$(date -u -d "$submit" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || true)
  emit --kind submitted ${when:+--time "$when"}
fi
placement=(--nodes "${SLURM_JOB_NODELIST:-}")
if [ -n "${FAULTLINE_RANKS_PER_NODE:-}" ]; then placement+=(--ranks-per-node "$FAULTLINE_RANKS_PER_NODE")
elif [ -n "${SLURM_JOB_NUM_TASKS:-${SLURM_NTASKS:-}}" ]; then placement+=(--tasks "${SLURM_JOB_NUM_TASKS:-$SLURM_NTASKS}")
fi
emit --kind scheduled "${placement[@]}"
[ "${FAULTLINE_EMIT_RUNNING:-1}" = 0 ] || emit --kind running
exit 0
