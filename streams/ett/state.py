"""Per-job state of the ETT stage and its exact JSON form.

Times are integer microseconds since the Unix epoch (UTC): exact, cheap to compare and
JSON-safe, so ``load(dump(s))`` is the same state. Nothing grows with the job's length: per
attempt the state holds the highest done step, the resolved frontier, a capped sample of
recent step times, the open checkpoint spans of the unresolved stretch (capped), and one
candidate per detection source.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from schemas.derived import EttKind

JsonData = dict[str, Any]
Phase = Literal["pre", "run", "interrupted", "failed", "done"]
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_us(value: datetime) -> int:
    """Microseconds since the epoch of an aware datetime (exact)."""
    delta = value - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_us(value: int) -> datetime:
    """The aware UTC datetime of ``value`` microseconds since the epoch (exact)."""
    return _EPOCH + timedelta(microseconds=value)


def seconds(value: float) -> int:
    """A duration in seconds as integer microseconds."""
    return int(round(value * 1_000_000))


@dataclass
class Cause:
    """A candidate cause of a detection: when it happened, its id, and its source."""

    time_us: int
    cause_id: str
    source: Literal["decision", "verdict", "fault", "incident"]

    def dump(self) -> list[Any]:
        return [self.time_us, self.cause_id, self.source]

    @classmethod
    def load(cls, data: list[Any] | None) -> Cause | None:
        return None if data is None else cls(int(data[0]), str(data[1]), data[2])


@dataclass
class Run:
    """The pending (not yet emitted) interval: a maximal run of one kind and cause."""

    kind: EttKind
    cause_id: str | None
    start_us: int
    end_us: int

    def dump(self) -> list[Any]:
        return [self.kind, self.cause_id, self.start_us, self.end_us]

    @classmethod
    def load(cls, data: list[Any] | None) -> Run | None:
        return None if data is None else cls(data[0], data[1], int(data[2]), int(data[3]))


@dataclass
class StepTimes:
    """The last ``cap`` done-step times of an attempt, in arrival order and sorted (for the median)."""

    recent: list[float] = field(default_factory=list)
    ordered: list[float] = field(default_factory=list)

    def add(self, value: float, cap: int) -> None:
        """Add one step time, evicting the oldest past ``cap``; O(cap) list moves, no sort."""
        self.recent.append(value)
        insort(self.ordered, value)
        if len(self.recent) > cap:
            del self.ordered[bisect_left(self.ordered, self.recent.pop(0))]

    def median(self) -> float | None:
        """The median of the kept times, None when there are none."""
        n = len(self.ordered)
        if n == 0:
            return None
        mid = n // 2
        return self.ordered[mid] if n % 2 else (self.ordered[mid - 1] + self.ordered[mid]) / 2


@dataclass
class AttemptState:
    """One attempt of a job, from its first job_event to the next attempt or the lifetime's end.

    ``cursor_us`` is the resolved frontier: every instant of the attempt before it has been
    handed to the emitter. The stretch after it is open: its kind waits for the next done
    step, ``running``/``scheduled``, or the attempt's end. ``phase``:
    ``pre`` (before ``running``), ``run``, ``interrupted`` (a ``failed`` or a next attempt at
    ``interrupt_us``, detection not yet settled), ``failed`` (settled failure, waiting for a
    next attempt or the lifetime's end; the open stretch is post-detection scheduling),
    ``done`` (everything emitted).
    """

    number: int
    start_us: int
    cursor_us: int
    gpus: int | None = None
    phase: Phase = "pre"
    scheduled: bool = False
    ran: bool = False
    last_step: int | None = None
    recompute_to: int | None = None
    """M of ETT.md while the attempt redoes lost steps (resumed below M), else None."""
    threshold_us: int = 0
    """The productive-gap limit of the open gap (known when the gap opens)."""
    times: StepTimes = field(default_factory=StepTimes)
    spans: list[tuple[int, int | None]] = field(default_factory=list)
    """Checkpoint spans ``[start, end or None]`` not yet wholly behind ``cursor_us``."""
    detector: Cause | None = None
    """Earliest verdict or decision at or after the onset (the last done step)."""
    fault: Cause | None = None
    """First fault-level Fault at or after the onset."""
    incident: Cause | None = None
    """Root cause of the attempt's latest incident (time = the incident's last_seen)."""
    interrupt_us: int | None = None
    end_us: int | None = None
    cause_id: str | None = None
    """Cause of the settled interruption (post-detection scheduling keeps it)."""
    run: Run | None = None

    def dump(self) -> JsonData:
        """JSON-ready data of this attempt."""
        return {
            "number": self.number, "start_us": self.start_us, "cursor_us": self.cursor_us,
            "gpus": self.gpus, "phase": self.phase, "scheduled": self.scheduled, "ran": self.ran,
            "last_step": self.last_step, "recompute_to": self.recompute_to,
            "threshold_us": self.threshold_us, "times": list(self.times.recent),
            "spans": [[start, end] for start, end in self.spans],
            "detector": _dump(self.detector), "fault": _dump(self.fault), "incident": _dump(self.incident),
            "interrupt_us": self.interrupt_us, "end_us": self.end_us, "cause_id": self.cause_id,
            "run": None if self.run is None else self.run.dump(),
        }

    @classmethod
    def load(cls, data: JsonData) -> AttemptState:
        """The attempt :meth:`dump` saved."""
        recent = [float(v) for v in data["times"]]
        return cls(
            number=int(data["number"]), start_us=int(data["start_us"]), cursor_us=int(data["cursor_us"]),
            gpus=data["gpus"], phase=data["phase"], scheduled=bool(data["scheduled"]), ran=bool(data["ran"]),
            last_step=data["last_step"], recompute_to=data["recompute_to"],
            threshold_us=int(data["threshold_us"]), times=StepTimes(recent, sorted(recent)),
            spans=[(int(s[0]), None if s[1] is None else int(s[1])) for s in data["spans"]],
            detector=Cause.load(data["detector"]), fault=Cause.load(data["fault"]),
            incident=Cause.load(data["incident"]), interrupt_us=data["interrupt_us"],
            end_us=data["end_us"], cause_id=data["cause_id"], run=Run.load(data["run"]),
        )


def _dump(cause: Cause | None) -> list[Any] | None:
    return None if cause is None else cause.dump()


@dataclass
class EttState:
    """Everything the ETT stage remembers about one job.

    ``current`` is the attempt receiving events; ``ended`` an attempt that has ended in an
    interruption whose detection is not settled yet (derived events about it, e.g. a verdict
    evaluated at the instant of the restart, may still arrive). ``ignored`` counts inputs that
    contradict the lifecycle (late or duplicate job_events, events after the end, checkpoint
    overflow): counted, never a crash.
    """

    job_id: str | None = None
    cluster: str | None = None
    lifetime_start_us: int | None = None
    lifetime_end_us: int | None = None
    terminal: bool = False
    max_step_before: int | None = None
    """Highest step done in the attempts before ``current`` (M of ETT.md)."""
    current: AttemptState | None = None
    ended: AttemptState | None = None
    ignored: int = 0
    due_at: datetime | None = field(default=None, compare=False)
    """Derived, not saved: when event time alone next settles something (see the detector)."""

    def dump(self) -> JsonData:
        """JSON-ready data of this state."""
        return {
            "job_id": self.job_id, "cluster": self.cluster, "lifetime_start_us": self.lifetime_start_us,
            "lifetime_end_us": self.lifetime_end_us, "terminal": self.terminal,
            "max_step_before": self.max_step_before,
            "current": None if self.current is None else self.current.dump(),
            "ended": None if self.ended is None else self.ended.dump(), "ignored": self.ignored,
        }

    @classmethod
    def load(cls, data: JsonData) -> EttState:
        """The state :meth:`dump` saved."""
        return cls(
            job_id=data["job_id"], cluster=data["cluster"], lifetime_start_us=data["lifetime_start_us"],
            lifetime_end_us=data["lifetime_end_us"], terminal=bool(data["terminal"]),
            max_step_before=data["max_step_before"],
            current=None if data["current"] is None else AttemptState.load(data["current"]),
            ended=None if data["ended"] is None else AttemptState.load(data["ended"]),
            ignored=int(data["ignored"]),
        )
