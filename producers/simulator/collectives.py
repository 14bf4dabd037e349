"""Flight-recorder style collective sequence numbers of one rank, derived from the plan.

Each training step issues ``PER_STEP[group]`` collectives (one gradient all-reduce on
``dp``, several tensor-parallel all-reduces on ``tp``); evaluation adds one per
``EVAL_OP_MS``. In a hang the waiting ranks have entered the next ``dp`` all-reduce
(enqueued = completed + 1, in flight since the onset) and the source rank(s) have not.
"""

from __future__ import annotations

from dataclasses import dataclass

from producers.simulator.timeline import JobTimeline

GROUPS = ("dp", "tp")
PER_STEP = {"dp": 1, "tp": 4}
DP_ENQUEUE_AT = 0.75
"""Fraction of a step after which the gradient all-reduce is enqueued (backward is done)."""


@dataclass(frozen=True)
class Snapshot:
    """One rank's state in one communicator; ``since_ms`` is set iff ``op`` is."""

    enqueued: int
    completed: int
    op: str | None = None
    since_ms: int | None = None


def _count(tl: JobTimeline, group: str, ms: int) -> int:
    return tl.steps_done(ms) * PER_STEP[group] + tl.eval_ops(ms)


def _training(tl: JobTimeline, group: str, ms: int) -> Snapshot:
    done, start, length = tl.current_step(ms)
    base = done * PER_STEP[group] + tl.eval_ops(ms)
    fraction = min(0.999, (ms - start) / length)
    if group == "dp":
        if fraction < DP_ENQUEUE_AT:
            return Snapshot(base, base)
        return Snapshot(base + 1, base, "allreduce", start + int(DP_ENQUEUE_AT * length))
    ops = fraction * PER_STEP[group]
    completed = base + int(ops)
    if ops - int(ops) < 0.6:
        return Snapshot(completed, completed)
    since = start + int((int(ops) + 0.6) / PER_STEP[group] * length)
    return Snapshot(completed + 1, completed, "allreduce", since)


def _hung(tl: JobTimeline, group: str, role: str) -> Snapshot:
    assert tl.hang is not None
    onset = tl.hang.onset_ms
    base = _count(tl, group, onset)
    if group != "dp":
        return Snapshot(base + PER_STEP[group], base + PER_STEP[group])
    if role == "hang_source":
        return Snapshot(base, base)
    return Snapshot(base + 1, base, "allreduce", onset)


def snapshot(tl: JobTimeline, role: str, group: str, ms: int) -> Snapshot:
    """The collective state of a rank in ``role`` (an active role) of ``tl`` at ``ms``."""
    if role == "train":
        return _training(tl, group, ms)
    if role in ("hang_wait", "hang_source"):
        return _hung(tl, group, role)
    if role == "ckpt_barrier" and group == "dp":
        count, phase = _count(tl, group, ms), tl.phase_at(ms)
        since = phase.start_ms if phase is not None else ms
        return Snapshot(count + 1, count, "barrier", since)
    count = _count(tl, group, ms)
    return Snapshot(count, count)
