"""A whole-history reading of ETT.md, for checking the streaming detector (test helper, no I/O).

It sees all of a job's events at once and states, for every elementary stretch between two
event times, the kind, attempt and cause ETT.md assigns, by precedence. It shares no code with
``streams.ett`` beyond the settings: the streaming detector must reach the same answer with
bounded state and without knowing the future.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from schemas import Decision, Event, HangVerdict, JobEvent, StepProgress
from streams.ett import EttSettings

Segment = tuple[datetime, datetime, int, str, str | None]
"""(start, end, attempt, kind, cause_id)."""


@dataclass
class Attempt:
    number: int
    start: datetime
    end: datetime | None = None
    scheduled: datetime | None = None
    running: datetime | None = None
    resume: int | None = None
    failed: datetime | None = None
    followed: bool = False
    first_index: int = 0
    """Position of the attempt's first event in the stream: causes delivered before it belong
    to the attempt before (the stream, not the clock, says which attempt was current)."""
    done: list[tuple[datetime, int, float]] = field(default_factory=list)
    checkpoints: list[list[datetime | None]] = field(default_factory=list)


@dataclass
class Lifetime:
    start: datetime
    end: datetime | None
    attempts: list[Attempt]


def lifecycle(events: Sequence[Event]) -> Lifetime | None:
    """The job's attempts as the contract defines them (events in delivery order)."""
    attempts: list[Attempt] = []
    end: datetime | None = None
    for i, e in enumerate(events):
        if end is not None:
            break
        if isinstance(e, JobEvent):
            if not attempts or e.attempt > attempts[-1].number:
                if attempts:
                    attempts[-1].end, attempts[-1].followed = e.event_time, True
                attempts.append(Attempt(e.attempt, e.event_time, first_index=i))
            elif e.attempt < attempts[-1].number:
                continue
            end = _job_event(attempts[-1], e)
        elif isinstance(e, StepProgress) and attempts:
            a = attempts[-1]
            if a.running is not None and a.failed is None and (not a.done or e.step > a.done[-1][1]):
                a.done.append((e.event_time, e.step, e.step_time_ms))
    if not attempts:
        return None
    last = attempts[-1]
    if end is None and last.failed is not None:
        end = last.failed
    if end is not None:
        last.end = end
    return Lifetime(attempts[0].start, end, attempts)


def _job_event(a: Attempt, e: JobEvent) -> datetime | None:
    t = e.event_time
    pre = a.running is None and a.failed is None
    if e.kind == "scheduled" and pre and a.scheduled is None:
        a.scheduled = t
    elif e.kind == "running" and pre:
        a.running, a.resume = t, e.step
    elif e.kind == "checkpoint_started" and not (a.checkpoints and a.checkpoints[-1][1] is None):
        a.checkpoints.append([t, None])
    elif e.kind == "checkpoint_completed" and a.checkpoints and a.checkpoints[-1][1] is None:
        a.checkpoints[-1][1] = t
    elif e.kind == "failed" and a.failed is None:
        a.failed = t
    elif e.kind in ("finished", "cancelled"):
        return t
    return None


def segments(events: Sequence[Event], settings: EttSettings, until: datetime) -> list[Segment]:
    """Every elementary stretch of the lifetime up to ``until`` (or its end) with its kind."""
    life = lifecycle(events)
    if life is None:
        return []
    out: list[Segment] = []
    best_before = -1
    for a in life.attempts:
        end = a.end or until
        rules = _rules(a, end, best_before, events, settings)
        cuts = sorted({a.start, end, *(t for t in rules.points if a.start < t < end)})
        for lo, hi in zip(cuts, cuts[1:], strict=False):
            kind, cause = rules.kind_at(lo)
            out.append((lo, hi, a.number, kind, cause))
        if a.done:
            best_before = max(best_before, a.done[-1][1])
    return out


@dataclass
class _Rules:
    points: list[datetime]
    claims: list[tuple[str, datetime, datetime, str | None]]

    def kind_at(self, t: datetime) -> tuple[str, str | None]:
        order = ["checkpoint", "detection", "scheduling", "recompute", "initialization", "productive"]
        hits = [(order.index(k), k, c) for k, lo, hi, c in self.claims if lo <= t < hi]
        if not hits:
            return "idle", None
        _, kind, cause = min(hits)
        return kind, cause


def _rules(a: Attempt, end: datetime, best_before: int, events: Sequence[Event],
           settings: EttSettings) -> _Rules:
    claims: list[tuple[str, datetime, datetime, str | None]] = []
    for lo, hi in a.checkpoints:
        claims.append(("checkpoint", lo, hi or end, None))  # type: ignore[arg-type]  # lo is set
    if a.scheduled is not None:
        claims.append(("scheduling", a.start, a.scheduled, None))
    init_from = a.scheduled or a.start
    claims.append(("initialization", init_from, a.running or end, None))
    interrupt = a.failed or (end if a.followed else None)
    if a.running is not None:
        claims += _running_claims(a, end, best_before, settings)
    if interrupt is not None and a.running is not None:
        onset = a.done[-1][0] if a.done else a.running
        detected, cause = _detected(a, onset, interrupt, events)
        claims.append(("detection", onset, detected, cause))
        claims.append(("scheduling", detected, end, cause))
    elif interrupt is not None:  # never ran: no onset, no detection; the cause may come from the start
        claims.append(("scheduling", interrupt, end, _detected(a, a.start, interrupt, events)[1]))
    points = [t for _, lo, hi, _ in claims for t in (lo, hi)]
    return _Rules(points, claims)


def _running_claims(a: Attempt, end: datetime, best_before: int,
                    settings: EttSettings) -> list[tuple[str, datetime, datetime, str | None]]:
    assert a.running is not None
    claims: list[tuple[str, datetime, datetime, str | None]] = []
    if best_before >= 0 and a.resume is not None and a.resume < best_before:
        reach = next((t for t, s, _ in a.done if s >= best_before), end)
        claims.append(("recompute", a.running, reach, None))
    prev: datetime = a.running
    times: list[float] = []
    for t, _, ms in a.done:
        recent = times[-settings.median_window:]
        limit = max(settings.productive_gap_floor_s,
                    settings.productive_gap_factor * statistics.median(recent) / 1000 if recent else 0.0)
        if (t - prev).total_seconds() <= limit + 1e-9:
            claims.append(("productive", prev, t, None))
        prev = t
        times.append(ms)
    return claims


def _detected(a: Attempt, onset: datetime, interrupt: datetime,
              events: Sequence[Event]) -> tuple[datetime, str | None]:
    found: list[tuple[datetime, int, str]] = []
    for e in events[a.first_index + 1:]:
        if isinstance(e, HangVerdict) and e.attempt == a.number and onset <= e.detected_at <= interrupt:
            found.append((e.detected_at, 1, e.verdict_id))
        if (isinstance(e, Decision) and e.action not in ("checkpoint_now", "notify")
                and onset <= e.issued_at <= interrupt):
            found.append((e.issued_at, 0, e.decision_id))
    if not found:
        return interrupt, None
    t, _, cause = min(found)
    return t, cause
