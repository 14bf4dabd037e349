"""Turning resolved stretches of an attempt into settled ``EttInterval`` events.

The detector resolves an attempt's timeline in event-time order, one stretch at a time, each
with its base kind (scheduling, initialization, recompute, productive, idle, detection).
Here the stretch is overlaid with the attempt's checkpoint spans (checkpoint has the highest
precedence), cut on the epoch grid, and merged into maximal runs of one kind and cause. A run
is emitted once its end is fixed: the next piece differs, a grid line or a forced split (an
interruption, the attempt's end) is reached, or the watermark rules out its continuation
(:func:`close_run`). Run bounds therefore depend on the events alone, never on when the
shell flushes, so replay and streaming emit the same intervals with the same ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from schemas import EttInterval, Event, derived_id
from schemas.derived import EttKind
from streams.ett.state import AttemptState, Run, from_us

CHECKPOINT: EttKind = "checkpoint"


@dataclass
class Emitter:
    """Where settled intervals go, with what the interval needs beyond the attempt."""

    job_id: str
    cluster: str
    grid_us: int
    out: list[Event] = field(default_factory=list)

    def interval(self, attempt: AttemptState, run: Run) -> None:
        """Emit ``run`` of ``attempt`` as an EttInterval (id: job, attempt, kind, start)."""
        start, end = from_us(run.start_us), from_us(run.end_us)
        event_id = derived_id("ett_interval", self.job_id, attempt.number, run.kind, start)
        self.out.append(EttInterval(
            event_id=event_id, event_time=end, cluster=self.cluster, job_id=self.job_id,
            attempt=attempt.number, kind=run.kind, start=start, end=end,
            cause_id=run.cause_id, gpus=attempt.gpus,
        ))


def resolve(em: Emitter, attempt: AttemptState, end_us: int, kind: EttKind, cause_id: str | None = None) -> None:
    """Settle ``[attempt.cursor_us, end_us)`` as ``kind`` (under its checkpoints); advance the cursor."""
    start_us = attempt.cursor_us
    if end_us <= start_us:
        return
    pos = start_us
    for span_start, span_end in attempt.spans:
        lo = max(pos, span_start)
        hi = end_us if span_end is None else min(end_us, span_end)
        if hi <= lo:
            continue
        _piece(em, attempt, kind, cause_id, pos, lo)
        _piece(em, attempt, CHECKPOINT, None, lo, hi)
        pos = hi
    _piece(em, attempt, kind, cause_id, pos, end_us)
    attempt.spans = [s for s in attempt.spans if s[1] is None or s[1] > end_us]
    attempt.cursor_us = end_us


def close_run(em: Emitter, attempt: AttemptState) -> None:
    """Emit the pending run now: the caller knows the next instant belongs to another run."""
    if attempt.run is not None:
        em.interval(attempt, attempt.run)
        attempt.run = None


def _piece(em: Emitter, attempt: AttemptState, kind: EttKind, cause_id: str | None, start_us: int, end_us: int) -> None:
    """Feed ``[start_us, end_us)`` to the run merger, cut at every grid line inside it."""
    while start_us < end_us:
        line = (start_us // em.grid_us + 1) * em.grid_us
        cut = min(line, end_us)
        _merge(em, attempt, kind, cause_id, start_us, cut)
        start_us = cut


def _merge(em: Emitter, attempt: AttemptState, kind: EttKind, cause_id: str | None, start_us: int, end_us: int) -> None:
    run = attempt.run
    if run is not None and run.kind == kind and run.cause_id == cause_id and run.end_us == start_us:
        run.end_us = end_us
    else:
        close_run(em, attempt)
        attempt.run = run = Run(kind, cause_id, start_us, end_us)
    if end_us % em.grid_us == 0:
        close_run(em, attempt)
