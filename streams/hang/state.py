"""The hang detector's per-job state and its JSON form.

Times inside the state are integer microseconds since the Unix epoch (UTC): exact, cheap
to compare and JSON-safe, so ``load(dump(s))`` is bit-for-bit the same state. Everything
that grows with time is bounded: sample buffers are pruned to the vote window, stacks are
kept as run-lengths, collectives as the latest snapshot per (rank, communicator).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

JsonData = dict[str, Any]
GpuPoint = tuple[int, float, float | None]
NetPoint = tuple[int, int]
MAX_POINTS = 256
"""Hard cap per buffer, on top of time pruning, in case a producer samples very fast."""
MAX_GAPS = 32


def to_us(value: datetime) -> int:
    """Microseconds since the epoch of an aware datetime (exact)."""
    delta = value.astimezone(UTC) - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_us(value: int) -> datetime:
    """The aware UTC datetime of ``value`` microseconds since the epoch (exact)."""
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=value)


def seconds(value: float) -> int:
    """A duration in seconds as integer microseconds."""
    return int(round(value * 1_000_000))


@dataclass
class StackRun:
    """The trailing run of identical stack samples of one rank."""

    sig: str
    start_us: int
    length: int
    last_us: int
    comm: bool


@dataclass
class Snapshot:
    """The latest collective_progress of one rank in one communicator."""

    t_us: int
    enqueued: int
    completed: int
    op: str | None
    since_us: int | None


@dataclass
class AttemptState:
    """Evidence of the current attempt; replaced wholesale when a new attempt begins."""

    gpu: dict[int, deque[GpuPoint]] = field(default_factory=dict)
    net: dict[str, deque[NetPoint]] = field(default_factory=dict)
    stacks: dict[int, StackRun] = field(default_factory=dict)
    colls: dict[tuple[int, str], Snapshot] = field(default_factory=dict)
    last_log_us: int | None = None
    log_gaps: deque[int] = field(default_factory=lambda: deque(maxlen=MAX_GAPS))
    step_ms: deque[float] = field(default_factory=lambda: deque(maxlen=MAX_GAPS))
    saw_steps: bool = False
    max_step: int | None = None
    last_progress_us: int | None = None
    floor_us: int | None = None
    verdict_open: bool = False
    verdict_step: int | None = None
    verdict_us: int | None = None


@dataclass
class JobState:
    """Everything the detector knows about one job.

    ``phase`` is one of ``none`` (no lifecycle seen), ``init`` (scheduled/restarting until
    running), ``train``, ``checkpoint`` or ``terminal`` (failed/finished/cancelled: no vote).
    ``history`` maps a phase to its earlier durations in seconds (most recent last).
    """

    job_id: str | None = None
    cluster: str | None = None
    attempt: int = 0
    placement: dict[int, str] = field(default_factory=dict)
    phase: str = "none"
    phase_since_us: int | None = None
    history: dict[str, list[float]] = field(default_factory=dict)
    next_eval_us: int | None = None
    last_us: int | None = None
    run: AttemptState = field(default_factory=AttemptState)

    def ranks_of(self, node: str) -> list[int]:
        """The ranks placed on ``node`` in rank order (local GPU index = position)."""
        return sorted(r for r, n in self.placement.items() if n == node)


def dump_state(state: JobState) -> JsonData:
    """The JSON-ready form of ``state`` (see :func:`load_state`)."""
    return {
        "job_id": state.job_id,
        "cluster": state.cluster,
        "attempt": state.attempt,
        "placement": [[r, n] for r, n in sorted(state.placement.items())],
        "phase": state.phase,
        "phase_since_us": state.phase_since_us,
        "history": {k: list(v) for k, v in sorted(state.history.items())},
        "next_eval_us": state.next_eval_us,
        "last_us": state.last_us,
        "run": _dump_run(state.run),
    }


def _dump_run(run: AttemptState) -> JsonData:
    return {
        "gpu": [[r, [list(p) for p in pts]] for r, pts in sorted(run.gpu.items())],
        "net": [[n, [list(p) for p in pts]] for n, pts in sorted(run.net.items())],
        "stacks": [[r, dict(vars(s))] for r, s in sorted(run.stacks.items())],
        "colls": [[r, g, dict(vars(s))] for (r, g), s in sorted(run.colls.items())],
        "last_log_us": run.last_log_us,
        "log_gaps": list(run.log_gaps),
        "step_ms": list(run.step_ms),
        "saw_steps": run.saw_steps,
        "max_step": run.max_step,
        "last_progress_us": run.last_progress_us,
        "floor_us": run.floor_us,
        "verdict_open": run.verdict_open,
        "verdict_step": run.verdict_step,
        "verdict_us": run.verdict_us,
    }


def load_state(data: JsonData) -> JobState:
    """Rebuild the state :func:`dump_state` saved."""
    return JobState(
        job_id=data["job_id"],
        cluster=data["cluster"],
        attempt=data["attempt"],
        placement={int(r): str(n) for r, n in data["placement"]},
        phase=data["phase"],
        phase_since_us=data["phase_since_us"],
        history={k: [float(x) for x in v] for k, v in data["history"].items()},
        next_eval_us=data["next_eval_us"],
        last_us=data["last_us"],
        run=_load_run(data["run"]),
    )


def _load_run(data: JsonData) -> AttemptState:
    run = AttemptState(
        gpu={int(r): deque(((p[0], p[1], p[2]) for p in pts), maxlen=MAX_POINTS)
             for r, pts in data["gpu"]},
        net={str(n): deque(((p[0], p[1]) for p in pts), maxlen=MAX_POINTS)
             for n, pts in data["net"]},
        stacks={int(r): StackRun(**s) for r, s in data["stacks"]},
        colls={(int(r), str(g)): Snapshot(**s) for r, g, s in data["colls"]},
    )
    for name in ("last_log_us", "saw_steps", "max_step", "last_progress_us", "floor_us",
                 "verdict_open", "verdict_step", "verdict_us"):
        setattr(run, name, data[name])
    run.log_gaps.extend(data["log_gaps"])
    run.step_ms.extend(data["step_ms"])
    return run
