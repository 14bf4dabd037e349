"""Real per-worker mini-batch times (Alibaba PAI, AntMan OSDI 2020) as step_progress events.

The CSV columns are ``<row>, worker, gpu, time, batch_time_norm``: ``time`` is the iteration
and ``batch_time_norm`` the mini-batch time normalised to 0-1000. Each worker becomes one rank
on its own node (``worker-NN``), the iteration becomes the step, the normalised time becomes
``step_time_ms`` (there is no compute/comm split, so ``compute_ms`` is null and the detector
falls back to step time), and event time is ``START + step * nominal_step_s``.
"""

from __future__ import annotations

import csv
from datetime import UTC, datetime, timedelta
from pathlib import Path

from schemas import Event, JobEvent, Placement, StepProgress

START = datetime(2020, 7, 1, tzinfo=UTC)


def worker_node(worker: int) -> str:
    """The node id given to an Alibaba worker (one worker per node)."""
    return f"worker-{worker:02d}"


def read_rows(path: Path) -> list[tuple[int, int, float]]:
    """(worker, iteration, batch_time_norm) rows of one CSV, sorted by iteration then worker."""
    with path.open(newline="") as handle:
        reader = csv.reader(handle)
        next(reader)
        rows = [(int(r[1]), int(r[3]), float(r[4])) for r in reader if len(r) >= 5]
    return sorted(rows, key=lambda r: (r[1], r[0]))


def job_events(
    path: Path, nominal_step_s: float = 1.0, cluster: str = "alibaba-pai"
) -> list[Event]:
    """A ``scheduled`` event then one StepProgress per CSV row, in event-time order."""
    rows = read_rows(path)
    job = path.stem.replace("_norm", "")
    workers = sorted({w for w, _, _ in rows})
    placement = tuple(Placement(rank=w, node_id=worker_node(w)) for w in workers)
    events: list[Event] = [JobEvent(
        event_id=f"{job}-scheduled", event_time=START, cluster=cluster, job_id=job, attempt=0,
        kind="scheduled", placement=placement)]
    for worker, step, value in rows:
        events.append(StepProgress(
            event_id=f"{job}-{worker}-{step}",
            event_time=START + timedelta(seconds=step * nominal_step_s),
            cluster=cluster, job_id=job, node_id=worker_node(worker), rank=worker, step=step,
            step_time_ms=value))
    return events


def step_at(when: datetime, nominal_step_s: float = 1.0) -> int:
    """The step whose nominal event time is ``when`` (inverse of the event-time mapping)."""
    return int(round((when - START).total_seconds() / nominal_step_s))
