"""Slurm: ``squeue --json`` records -> :class:`JobView`, and a polling watcher.

State mapping (base state; Slurm >= 23 lists flags, e.g. ``["PENDING", "REQUEUED"]``):

    PENDING, REQUEUED*          -> pending (REQUEUED* marks a requeue: a new attempt)
    CONFIGURING                 -> scheduled (nodes allocated, still booting)
    RUNNING, SUSPENDED, ...     -> running
    COMPLETING                  -> ending (teardown, of this attempt or of a requeued one)
    COMPLETED                   -> finished
    CANCELLED, REVOKED          -> cancelled
    FAILED, NODE_FAIL, TIMEOUT, BOOT_FAIL, DEADLINE, OUT_OF_MEMORY, PREEMPTED, SPECIAL_EXIT -> failed

The attempt is Slurm's ``restart_cnt`` (the ``SLURM_RESTART_COUNT`` a requeued job sees).
Placement: the job's node list in order, ranks given out block-wise (Slurm's default
distribution) from the total task count, or ``ranks_per_node`` per node when the job
launches several ranks per Slurm task (torchrun: one task per node, one rank per GPU).

``squeue --json`` ignores squeue's filter options in Slurm 22.05, so filtering by job id,
name, user or partition is done here on the records.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from producers.scheduler.hostlist import expand_hostlist
from producers.scheduler.lifecycle import JobView, Phase
from schemas import Placement

PHASES: dict[str, Phase] = {
    "PENDING": "pending", "REQUEUED": "pending", "REQUEUE_HOLD": "pending", "REQUEUE_FED": "pending",
    "CONFIGURING": "scheduled",
    "RUNNING": "running", "SUSPENDED": "running", "RESIZING": "running", "STAGE_OUT": "running",
    "SIGNALING": "running",
    "COMPLETING": "ending",
    "COMPLETED": "finished",
    "CANCELLED": "cancelled", "REVOKED": "cancelled",
    "FAILED": "failed", "NODE_FAIL": "failed", "TIMEOUT": "failed", "BOOT_FAIL": "failed", "DEADLINE": "failed",
    "OUT_OF_MEMORY": "failed", "PREEMPTED": "failed", "SPECIAL_EXIT": "failed",
}
REQUEUE_STATES = frozenset({"REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED"})


class SlurmError(RuntimeError):
    """squeue could not be run or returned something that is not its JSON."""


def _number(value: Any) -> int | None:
    """An int field of either JSON dialect: a plain int, or ``{"set", "infinite", "number"}``."""
    if isinstance(value, dict):
        return int(value["number"]) if value.get("set", True) and not value.get("infinite") else None
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _time(value: Any) -> datetime | None:
    seconds = _number(value)
    return datetime.fromtimestamp(seconds, UTC) if seconds else None


def _states(job: Mapping[str, Any]) -> list[str]:
    raw = job["job_state"]
    states = [str(s).upper() for s in (raw if isinstance(raw, list) else [raw])]
    if not states or states[0] not in PHASES:
        raise ValueError(f"unknown job_state {raw!r}")
    return states


def ranks_per_node_of(nodes: Sequence[str], tasks: int | None, ranks_per_node: int | None) -> list[int]:
    """How many ranks each node holds: ``ranks_per_node`` each, else ``tasks`` block-wise, else 1."""
    if ranks_per_node:
        return [ranks_per_node] * len(nodes)
    if not nodes or not tasks or tasks < len(nodes):
        return [1] * len(nodes)
    base, extra = divmod(tasks, len(nodes))
    return [base + (1 if i < extra else 0) for i in range(len(nodes))]


def placement_of(node_list: str, tasks: int | None, ranks_per_node: int | None = None) -> tuple[Placement, ...]:
    """Ranks 0..N-1 on the nodes of hostlist ``node_list``, block-wise."""
    nodes = expand_hostlist(node_list) if node_list else []
    out, rank = [], 0
    for node, count in zip(nodes, ranks_per_node_of(nodes, tasks, ranks_per_node), strict=True):
        for _ in range(count):
            out.append(Placement(rank=rank, node_id=node))
            rank += 1
    return tuple(out)


def _detail(states: list[str], job: Mapping[str, Any]) -> str | None:
    parts = ["+".join(states)]
    reason = job.get("state_reason")
    if reason and reason != "None":
        parts.append(f"reason={reason}")
    code = job.get("exit_code")
    if code not in (None, 0, ""):
        parts.append(f"exit_code={json.dumps(code, separators=(',', ':'))}")
    return " ".join(parts)


def view_of(job: Mapping[str, Any], ranks_per_node: int | None = None) -> JobView:
    """The :class:`JobView` of one ``squeue --json`` job record; KeyError/ValueError if malformed."""
    states = _states(job)
    phase = PHASES[states[0]]
    placement = placement_of(str(job.get("nodes") or ""), _number(job.get("tasks")), ranks_per_node) \
        if phase not in ("pending",) else ()
    return JobView(
        job_id=str(job["job_id"]), phase=phase, attempt=_number(job.get("restart_cnt")) or 0,
        placement=placement, requeued=bool(REQUEUE_STATES & set(states)),
        submitted_at=_time(job.get("submit_time")), started_at=_time(job.get("start_time")),
        ended_at=_time(job.get("end_time")), detail=_detail(states, job))


@dataclass(frozen=True)
class JobFilter:
    """Which jobs to follow (all when every field is empty)."""

    job_ids: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    users: frozenset[str] = frozenset()
    partitions: frozenset[str] = frozenset()

    def wants(self, job: Mapping[str, Any]) -> bool:
        """True when ``job`` passes every non-empty criterion."""
        checks = ((self.job_ids, "job_id"), (self.names, "name"), (self.users, "user_name"),
                  (self.partitions, "partition"))
        return all(not wanted or str(job.get(key, "")) in wanted for wanted, key in checks)


def squeue_jobs(squeue: str = "squeue", timeout_s: float = 30.0) -> list[dict[str, Any]]:
    """The job records of ``squeue --json``; SlurmError when it fails or prints no JSON."""
    try:
        done = subprocess.run([squeue, "--json"], capture_output=True, text=True, timeout=timeout_s, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SlurmError(f"{squeue} --json: {exc}") from exc
    if done.returncode != 0:
        raise SlurmError(f"{squeue} --json: exit {done.returncode}: {done.stderr.strip()[:500]}")
    try:
        jobs = json.loads(done.stdout)["jobs"]
    except (ValueError, KeyError, TypeError) as exc:
        raise SlurmError(f"{squeue} --json printed no job list: {exc}") from exc
    if not isinstance(jobs, list):
        raise SlurmError(f"{squeue} --json: 'jobs' is not a list")
    return jobs
