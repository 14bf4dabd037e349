#!/usr/bin/env bash
# Example EpilogSlurmctld for faultline: report how a job's attempt ended.
#
#   slurm.conf:  EpilogSlurmctld=/etc/slurm/faultline-epilog.sh
#
# Runs once per job attempt on the slurmctld host, at termination. Reads the job's state
# with `scontrol show job` and emits through `faultline jobs emit`:
#   COMPLETED                                   -> finished
#   CANCELLED                                   -> cancelled
#   FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, PREEMPTED -> failed
#   REQUEUED / PENDING (the job is being requeued) -> restarting, attempt SLURM_RESTART_COUNT + 1
#   anything else: by SLURM_JOB_EXIT_CODE (0 -> finished, else failed)
# Settings, ids and the always-exit-0 rule: see prolog.sh.
set -u

env_file="${FAULTLINE_ENV_FILE:-/etc/faultline/env}"
# shellcheck disable=SC1090
[ -r "$env_file" ] && set -a && . "$env_file" && set +a

bin="${FAULTLINE_BIN:-faultline}"
job="${SLURM_JOB_ID:?SLURM_JOB_ID not set}"
attempt="${SLURM_RESTART_COUNT:-0}"
state=$(scontrol show job -o "$job" 2>/dev/null | tr ' ' '\n' | sed -n 's/^JobState=//p')
detail="state=${state:-unknown} exit=${SLURM_JOB_EXIT_CODE2:-${SLURM_JOB_EXIT_CODE:-?}}"

case "$state" in
  COMPLETED) kind=finished ;;
  CANCELLED*) kind=cancelled ;;
  FAILED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED) kind=failed ;;
  REQUEUE*|PENDING) kind=restarting; attempt=$((attempt + 1)) ;;
  *) if [ "${SLURM_JOB_EXIT_CODE:-1}" = 0 ]; then kind=finished; else kind=failed; fi ;;
esac

args=(--job-id "$job" --attempt "$attempt" --kind "$kind" --detail "$detail"
      --cluster "${SLURM_CLUSTER_NAME:-default}")
[ -n "${FAULTLINE_JOBS_OUTPUT:-}" ] && args+=(--output "$FAULTLINE_JOBS_OUTPUT")
timeout "${FAULTLINE_TIMEOUT_S:-15}" "$bin" jobs emit "${args[@]}" \
  || logger -t faultline "epilog: job $job: 'jobs emit --kind $kind' failed" 2>/dev/null || true
exit 0
