"""``EttDetector``: effective-training-time accounting of one job (ETT.md), as a pure detector.

Key: ``job_id``. It runs last in the per-job pipeline (``streams.core.chain.JobPipeline``):
it sees the job's events in event-time order and, after each, the outputs of the stages
before it. It uses ``JobEvent``, ``StepProgress``, ``HangVerdict``, ``Decision`` (the
proposed ones; a guard-refused decision is ignored), ``Fault`` and ``Incident`` (for
``cause_id``); every other event only advances event time, in O(1).

Outputs: ``EttInterval`` events that tile the job's lifetime (no gap, no overlap) with the
precedence checkpoint > detection > scheduling > recompute > initialization > idle >
productive. Each interval is emitted once, when settled (its kind and both bounds can no
longer change); its id is ``derived_id("ett_interval", job_id, attempt, kind, start)`` and its
``event_time`` is its end. Interval bounds depend on the events alone (see
:mod:`streams.ett.timeline`), so replay and streaming agree whatever the flush times.

Watermark: ``step`` settles what an event's time settles; ``flush(state, now)`` settles what
is settled as of event time ``now`` (an interruption at or before ``now`` is settled; a
productive run ends when ``now`` is past its last step plus the productive-gap limit). A job
that is still running keeps its open stretch (after its last done step, or a checkpoint not
yet completed) unemitted: its kind is not known yet. A ``failed`` ends the lifetime
provisionally: everything up to it is emitted, and a later attempt reopens the lifetime from
the failure, its wait being post-detection scheduling of the failed attempt.

Readings of ETT.md where it leaves a choice (each has a test in ``tests/unit/ett``):

- a step report counts only inside a running attempt (after its ``running``, before its
  ``failed``); it is a done step when its number exceeds the attempt's highest done step;
- "the median step_time_ms of the steps done so far" is over the steps done before the gap's
  closing step, so a gap's limit is known when it opens; the first gap uses the 60 s floor;
- an attempt that never reached ``running`` has no onset, hence no detection: its time up to
  the interruption stays scheduling/initialization, the rest is post-detection scheduling;
  one that ends without either (cancelled in the queue) is initialization, as the table says;
- recompute needs ``running.step`` below M; one that never reaches M runs to the attempt's
  end (under detection and scheduling);
- a late event (older than what is already resolved) is applied at the resolved frontier.
"""

from __future__ import annotations

from datetime import datetime

from schemas import Decision, Event, Fault, HangVerdict, Incident, JobEvent, StepProgress
from streams.core.dispatch import kinds
from streams.ett import lifecycle
from streams.ett.causes import offer, settle
from streams.ett.settings import EttSettings
from streams.ett.state import AttemptState, Cause, EttState, JsonData, from_us, to_us
from streams.ett.timeline import Emitter, close_run

NOT_INTERRUPTING = ("checkpoint_now", "notify")
RELEVANT = (JobEvent, StepProgress, HangVerdict, Decision, Fault, Incident)
_RELEVANT = kinds(*RELEVANT)


class EttDetector:
    """Interval accounting per job (``Detector[EttState]``); see the module docstring."""

    name = "ett"

    def __init__(self, settings: EttSettings | None = None) -> None:
        self.settings = settings or EttSettings()
        self._grid_us = self.settings.split_every_s * 1_000_000

    def initial(self) -> EttState:
        """A fresh state for a job never seen before."""
        return EttState()

    def dump(self, state: EttState) -> JsonData:
        """JSON-ready data of ``state``."""
        return state.dump()

    def load(self, data: JsonData) -> EttState:
        """The state :meth:`dump` saved."""
        state = EttState.load(data)
        state.due_at = _due(state)
        return state

    def step(self, state: EttState, event: Event) -> tuple[EttState, list[Event]]:
        """Advance event time to ``event``, then apply it; returns the intervals it settles.

        O(1) for an event that changes nothing (a sample, a duplicate step report): one type
        test and one comparison with the next time at which event time alone settles something.
        """
        relevant = _RELEVANT[type(event)] and not _stale_step(state, event)
        if not relevant and (state.due_at is None or event.event_time <= state.due_at):
            return state, []
        if state.cluster is None:
            state.cluster = event.cluster
        if state.job_id is None and isinstance(event, (JobEvent, StepProgress)):
            state.job_id = event.job_id
        em = self._emitter(state)
        t_us = to_us(event.event_time)
        self._advance(state, em, t_us, inclusive=False)
        if relevant:
            self._apply(state, em, event, t_us)
        state.due_at = _due(state)
        return state, em.out

    def flush(self, state: EttState, now: datetime) -> tuple[EttState, list[Event]]:
        """Emit what is settled as of event time ``now``; idempotent for the same ``now``."""
        if state.due_at is None or now < state.due_at:
            return state, []
        em = self._emitter(state)
        self._advance(state, em, to_us(now), inclusive=True)
        state.due_at = _due(state)
        return state, em.out

    def _emitter(self, state: EttState) -> Emitter:
        return Emitter(state.job_id or "", state.cluster or "unknown", self._grid_us)

    def _advance(self, state: EttState, em: Emitter, now_us: int, inclusive: bool) -> None:
        """Settle interruptions that event time has passed; end productive runs that cannot go on."""
        ended = state.ended
        if ended is not None and _passed(now_us, ended.interrupt_us, inclusive):
            settle(em, ended)
            state.ended = None
        attempt = state.current
        if attempt is None:
            return
        if attempt.phase == "interrupted" and _passed(now_us, attempt.interrupt_us, inclusive):
            settle(em, attempt)
            if attempt.end_us is None:
                state.lifetime_end_us = attempt.interrupt_us
        run = attempt.run
        if (attempt.phase == "run" and run is not None and run.kind == "productive"
                and now_us > attempt.cursor_us + attempt.threshold_us):
            close_run(em, attempt)

    def _apply(self, state: EttState, em: Emitter, event: Event, t_us: int) -> None:
        if isinstance(event, StepProgress):
            lifecycle.on_step(state, em, event, t_us, self.settings)
        elif isinstance(event, JobEvent):
            lifecycle.on_job_event(state, em, event, t_us, self.settings)
        elif isinstance(event, HangVerdict):
            _offer_to_attempt(state, event.attempt, Cause(to_us(event.detected_at), event.verdict_id, "verdict"))
        elif isinstance(event, Decision):
            if event.action not in NOT_INTERRUPTING and not (event.guard and event.guard.refused):
                _offer_by_time(state, Cause(to_us(event.issued_at), event.decision_id, "decision"))
        elif isinstance(event, Fault):
            if event.level == "fault":
                _offer_fault(state, event)
        elif isinstance(event, Incident) and event.root_cause is not None:
            _offer_to_attempt(state, event.attempt, Cause(to_us(event.last_seen), event.root_cause, "incident"))


def _stale_step(state: EttState, event: Event) -> bool:
    """A step report that cannot be a done step (a duplicate, or outside a running attempt)."""
    if not isinstance(event, StepProgress):
        return False
    attempt = state.current
    if attempt is None or attempt.phase != "run":
        return True
    return attempt.last_step is not None and event.step <= attempt.last_step


def _due(state: EttState) -> datetime | None:
    """The event time from which event time alone settles something (None: nothing waits).

    An interruption settles once event time reaches it (``flush``) or passes it (``step``); a
    productive run ends when event time passes its last step plus the productive-gap limit."""
    times: list[int] = []
    if state.ended is not None and state.ended.interrupt_us is not None:
        times.append(state.ended.interrupt_us)
    attempt = state.current
    if attempt is not None:
        if attempt.phase == "interrupted" and attempt.interrupt_us is not None:
            times.append(attempt.interrupt_us)
        run = attempt.run
        if attempt.phase == "run" and run is not None and run.kind == "productive":
            times.append(attempt.cursor_us + attempt.threshold_us)
    return from_us(min(times)) if times else None


def _passed(now_us: int, at_us: int | None, inclusive: bool) -> bool:
    return at_us is not None and (now_us >= at_us if inclusive else now_us > at_us)


def _attempt_numbered(state: EttState, number: int) -> AttemptState | None:
    for attempt in (state.ended, state.current):
        if attempt is not None and attempt.number == number:
            return attempt
    return None


def _offer_to_attempt(state: EttState, number: int, cause: Cause) -> None:
    attempt = _attempt_numbered(state, number)
    if attempt is not None:
        offer(attempt, cause)


def _offer_by_time(state: EttState, cause: Cause) -> None:
    """A job-wide cause goes to the ended attempt if it is not later than that attempt's end."""
    ended = state.ended
    if ended is not None and ended.interrupt_us is not None and cause.time_us <= ended.interrupt_us:
        offer(ended, cause)
    elif state.current is not None:
        offer(state.current, cause)


def _offer_fault(state: EttState, fault: Fault) -> None:
    cause = Cause(to_us(fault.first_seen), fault.fault_id, "fault")
    if fault.attempt is None:
        _offer_by_time(state, cause)
    else:
        _offer_to_attempt(state, fault.attempt, cause)
