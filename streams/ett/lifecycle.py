"""How job events and done steps move an attempt's resolved frontier (ETT.md, per attempt).

Each function resolves the stretch that the event closes, with its base kind; checkpoints,
the grid and run merging are applied by :mod:`streams.ett.timeline`. Events that contradict
the lifecycle (a second ``running``, a ``failed`` of a failed attempt, a job_event of an
older attempt or after the end) change nothing and are counted in ``EttState.ignored``.
"""

from __future__ import annotations

from schemas import JobEvent, StepProgress
from schemas.derived import EttKind
from streams.ett.causes import finish, forget_before, settle
from streams.ett.settings import EttSettings
from streams.ett.state import AttemptState, EttState, seconds
from streams.ett.timeline import Emitter, resolve

TERMINAL = ("finished", "cancelled")


def on_job_event(state: EttState, em: Emitter, event: JobEvent, t_us: int, settings: EttSettings) -> None:
    """Apply one job_event at (clamped) event time ``t_us``."""
    attempt = state.current
    if state.terminal or (attempt is not None and event.attempt < attempt.number):
        state.ignored += 1
        return
    if attempt is None:
        state.lifetime_start_us = t_us
        attempt = state.current = AttemptState(event.attempt, t_us, t_us)
    elif event.attempt > attempt.number:
        attempt = _next_attempt(state, em, attempt, event.attempt, t_us)
    else:
        t_us = max(t_us, attempt.cursor_us)
    if event.placement:
        attempt.gpus = len({p.rank for p in event.placement})
    if not _apply(state, em, attempt, event, t_us, settings):
        state.ignored += 1


def _apply(state: EttState, em: Emitter, attempt: AttemptState, event: JobEvent, t_us: int,
           settings: EttSettings) -> bool:
    """Apply ``event`` to the current attempt; False when the lifecycle contradicts it."""
    kind = event.kind
    if kind == "scheduled":
        return _scheduled(em, attempt, t_us)
    if kind == "running":
        return _running(state, em, attempt, event.step, t_us, settings)
    if kind == "checkpoint_started":
        return _checkpoint_started(state, attempt, t_us, settings)
    if kind == "checkpoint_completed":
        return _checkpoint_completed(attempt, t_us)
    if kind == "failed":
        if attempt.phase not in ("pre", "run"):
            return False
        attempt.phase, attempt.interrupt_us = "interrupted", t_us
        return True
    if kind in TERMINAL:
        _terminal(state, em, attempt, t_us)
    return True


def _scheduled(em: Emitter, attempt: AttemptState, t_us: int) -> bool:
    if attempt.phase != "pre" or attempt.scheduled:
        return False
    resolve(em, attempt, t_us, "scheduling")
    attempt.scheduled = True
    return True


def _running(state: EttState, em: Emitter, attempt: AttemptState, step: int | None, t_us: int,
             settings: EttSettings) -> bool:
    if attempt.phase != "pre":
        return False
    resolve(em, attempt, t_us, "initialization")
    attempt.phase, attempt.ran = "run", True
    attempt.threshold_us = seconds(settings.productive_gap_floor_s)
    m = state.max_step_before
    if m is not None and step is not None and step < m:
        attempt.recompute_to = m
    forget_before(attempt, t_us)
    return True


def _checkpoint_started(state: EttState, attempt: AttemptState, t_us: int, settings: EttSettings) -> bool:
    if attempt.phase == "done" or (attempt.spans and attempt.spans[-1][1] is None):
        return False
    if len(attempt.spans) >= settings.max_checkpoint_spans:
        attempt.spans[-1] = (attempt.spans[-1][0], None)  # bounded state: absorb into the previous span
        state.ignored += 1
        return True
    attempt.spans.append((t_us, None))
    return True


def _checkpoint_completed(attempt: AttemptState, t_us: int) -> bool:
    if not attempt.spans or attempt.spans[-1][1] is not None:
        return False
    attempt.spans[-1] = (attempt.spans[-1][0], t_us)
    return True


def _terminal(state: EttState, em: Emitter, attempt: AttemptState, t_us: int) -> None:
    """``finished`` or ``cancelled``: the lifetime ends at ``t_us``."""
    state.terminal, state.lifetime_end_us, state.current = True, t_us, None
    if attempt.phase == "interrupted":
        attempt.end_us = t_us
        park(state, em, attempt)
    elif attempt.phase == "failed":
        finish(em, attempt, t_us, "scheduling", attempt.cause_id)
    else:
        finish(em, attempt, t_us, _open_kind(attempt))


def _open_kind(attempt: AttemptState) -> EttKind:
    """The base kind of the open stretch when the attempt ends without interruption."""
    if not attempt.ran:
        return "initialization"
    return "recompute" if attempt.recompute_to is not None else "idle"


def _next_attempt(state: EttState, em: Emitter, previous: AttemptState, number: int, t_us: int) -> AttemptState:
    """A job_event of a newer attempt at ``t_us`` ends ``previous`` there and starts the new one."""
    t_us = max(t_us, previous.cursor_us)
    if previous.last_step is not None:
        before = state.max_step_before
        state.max_step_before = previous.last_step if before is None else max(before, previous.last_step)
    if previous.phase in ("pre", "run"):
        previous.phase, previous.interrupt_us = "interrupted", t_us
    if previous.phase == "interrupted":
        previous.end_us = t_us
        park(state, em, previous)
    elif previous.phase == "failed":
        finish(em, previous, t_us, "scheduling", previous.cause_id)
    state.lifetime_end_us = None
    state.current = AttemptState(number, t_us, t_us, gpus=previous.gpus)
    return state.current


def park(state: EttState, em: Emitter, attempt: AttemptState) -> None:
    """Keep an ended, interrupted attempt until its detection can be settled (one slot)."""
    if state.ended is not None:
        settle(em, state.ended)
    state.ended = attempt


def on_step(state: EttState, em: Emitter, event: StepProgress, t_us: int, settings: EttSettings) -> None:
    """A step is done at its first report in the attempt; it closes the gap before it."""
    attempt = state.current
    if attempt is None or attempt.phase != "run":
        return
    if attempt.last_step is not None and event.step <= attempt.last_step:
        return
    t_us = max(t_us, attempt.cursor_us)
    kind: EttKind
    if attempt.recompute_to is not None:
        kind = "recompute"
    else:
        kind = "productive" if t_us - attempt.cursor_us <= attempt.threshold_us else "idle"
    resolve(em, attempt, t_us, kind)
    if attempt.recompute_to is not None and event.step >= attempt.recompute_to:
        attempt.recompute_to = None
    attempt.last_step = event.step
    attempt.times.add(event.step_time_ms, settings.median_window)
    median_ms = attempt.times.median() or 0.0
    attempt.threshold_us = max(seconds(settings.productive_gap_floor_s),
                               seconds(settings.productive_gap_factor * median_ms / 1000))
    forget_before(attempt, t_us)
