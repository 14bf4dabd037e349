"""Detection of an interruption: when it was detected, and which event is its cause.

ETT.md: for an attempt that ends in an interruption, detection is ``[onset, detected)``
with onset = the time of the attempt's last done step (its ``running`` if none) and
detected = the earliest, at or after the onset, of the attempt's ``hang_verdict.detected_at``,
a ``decision.issued_at`` whose action is not ``checkpoint_now``/``notify``, and the
``failed`` event (the attempt's end if none). Post-detection scheduling runs from
``detected`` to the attempt's end.

Only the earliest candidate at or after the onset matters, and the onset only moves forward
(each done step), so one slot per source is enough. ``cause_id``: the decision or verdict that
set ``detected`` (a decision wins a tie); when the ``failed`` event or the attempt's end set
it, the root cause of the attempt's latest incident still open at the onset, else the first
fault-level ``Fault`` at or after the onset, else null.

Settlement waits until event time has passed the interruption: a verdict or a decision
caused by the very event that interrupted the attempt arrives right after it, stamped at or
before it (a verdict is evaluated on a grid point not later than the event that triggers it;
a decision carries its cause's time).
"""

from __future__ import annotations

from schemas.derived import EttKind
from streams.ett.state import AttemptState, Cause
from streams.ett.timeline import Emitter, close_run, resolve

OPEN_PHASES = ("pre", "run", "interrupted")


def onset_floor(attempt: AttemptState) -> int:
    """The earliest time a candidate may have: the onset so far (last done step or running)."""
    return attempt.cursor_us if attempt.ran else attempt.start_us


def offer(attempt: AttemptState, cause: Cause) -> None:
    """A verdict, decision, fault or incident that may explain the attempt's interruption."""
    if attempt.phase not in OPEN_PHASES:
        return
    if attempt.interrupt_us is not None and cause.time_us > attempt.interrupt_us:
        return
    if cause.source == "incident":
        if attempt.incident is None or cause.time_us >= attempt.incident.time_us:
            attempt.incident = cause
        return
    if cause.time_us < onset_floor(attempt):
        return
    if cause.source == "fault":
        if attempt.fault is None:
            attempt.fault = cause
        return
    best = attempt.detector
    if best is None or cause.time_us < best.time_us or (
            cause.time_us == best.time_us and cause.source == "decision" and best.source != "decision"):
        attempt.detector = cause


def forget_before(attempt: AttemptState, onset_us: int) -> None:
    """The onset moved to ``onset_us`` (a done step): drop candidates that are now too early."""
    if attempt.detector is not None and attempt.detector.time_us < onset_us:
        attempt.detector = None
    if attempt.fault is not None and attempt.fault.time_us < onset_us:
        attempt.fault = None


def detected(attempt: AttemptState, onset_us: int, interrupt_us: int) -> tuple[int, str | None]:
    """``detected`` and the cause id for an interruption at ``interrupt_us``."""
    best = attempt.detector
    if best is not None and onset_us <= best.time_us <= interrupt_us:
        return best.time_us, best.cause_id
    if attempt.incident is not None and attempt.incident.time_us >= onset_us:
        return interrupt_us, attempt.incident.cause_id
    if attempt.fault is not None and onset_us <= attempt.fault.time_us <= interrupt_us:
        return interrupt_us, attempt.fault.cause_id
    return interrupt_us, None


def settle(em: Emitter, attempt: AttemptState) -> None:
    """Emit an interrupted attempt's detection and post-detection scheduling up to the interruption.

    An attempt that never ran has no onset: its time up to the interruption stays initialization
    (its ``scheduled`` part was resolved already) and detection is empty. Without a known end
    (a ``failed`` that a next attempt may still follow) the attempt goes to phase ``failed``,
    whose open stretch is scheduling; the interruption is a forced split, so the intervals up
    to it are final whatever comes next.
    """
    interrupt_us = attempt.interrupt_us
    if interrupt_us is None:
        return
    if attempt.ran:
        onset_us = attempt.cursor_us
        detected_us, cause_id = detected(attempt, onset_us, interrupt_us)
        resolve(em, attempt, detected_us, "detection", cause_id)
    else:
        _, cause_id = detected(attempt, attempt.start_us, interrupt_us)
        resolve(em, attempt, interrupt_us, "initialization")
    resolve(em, attempt, interrupt_us, "scheduling", cause_id)
    close_run(em, attempt)
    attempt.cause_id = cause_id
    attempt.phase = "failed"
    if attempt.end_us is not None:
        finish(em, attempt, attempt.end_us, "scheduling", cause_id)


def finish(em: Emitter, attempt: AttemptState, end_us: int, kind: EttKind, cause_id: str | None = None) -> None:
    """End the attempt at ``end_us``: its open stretch is ``kind``, open checkpoints stop here."""
    resolve(em, attempt, end_us, kind, cause_id)
    close_run(em, attempt)
    attempt.spans.clear()
    attempt.end_us = end_us
    attempt.phase = "done"
