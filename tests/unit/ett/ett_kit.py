"""Builders of one job's events and checks on emitted intervals, for the ETT tests (no I/O)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta

from schemas import (
    Decision,
    EttInterval,
    Event,
    Fault,
    GpuSample,
    GpuStats,
    HangSignals,
    HangVerdict,
    Incident,
    JobEvent,
    Placement,
    Reason,
    StepProgress,
)
from schemas.jobs import JobEventKind
from streams.ett import EttDetector, EttSettings, EttState

T0 = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
"""An exact grid line (08:00 UTC), so intervals split on the 15-minute grid at known places."""
JOB = "j1"


def at(s: float) -> datetime:
    """T0 + ``s`` seconds."""
    return T0 + timedelta(seconds=s)


def secs(t: datetime) -> float:
    """Seconds since T0."""
    return (t - T0).total_seconds()


def job(kind: JobEventKind, s: float, attempt: int = 0, step: int | None = None, ranks: int = 0) -> JobEvent:
    """A job_event at ``s``; ``ranks`` > 0 gives a placement of that many ranks (two per node)."""
    placement = tuple(Placement(rank=r, node_id=f"n{r // 2}") for r in range(ranks))
    return JobEvent(event_id=f"je-{kind}-{s}-{attempt}", event_time=at(s), cluster="c1", job_id=JOB,
                    attempt=attempt, kind=kind, placement=placement, step=step)


def step(s: float, n: int, ms: float = 1000.0, rank: int = 0) -> StepProgress:
    """Step ``n`` reported by ``rank`` at ``s`` with ``ms`` of step time."""
    return StepProgress(event_id=f"sp-{s}-{n}-{rank}", event_time=at(s), cluster="c1", job_id=JOB,
                        node_id=f"n{rank // 2}", rank=rank, step=n, step_time_ms=ms)


def steps(start: float, count: int, every: float = 1.0, first: int = 1, ranks: int = 1) -> list[StepProgress]:
    """``count`` consecutive steps from ``first``, one every ``every`` s from ``start``, each on every rank."""
    return [step(start + i * every, first + i, every * 1000, rank)
            for i in range(count) for rank in range(ranks)]


def verdict(s: float, attempt: int = 0, vid: str = "v1") -> HangVerdict:
    """A hang verdict detected at ``s``."""
    return HangVerdict(event_id=vid, event_time=at(s), cluster="c1", verdict_id=vid, job_id=JOB,
                       attempt=attempt, onset_time=at(s - 60), detected_at=at(s),
                       signals=HangSignals(log_silent=True), confidence=0.9)


def decision(s: float, action: str = "restart_in_place", attempt: int = 0, did: str = "d1") -> Decision:
    """A proposed decision issued at ``s``."""
    return Decision(event_id=did, event_time=at(s), cluster="c1", decision_id=did, job_id=JOB,
                    attempt=attempt, issued_at=at(s), action=action,  # type: ignore[arg-type]  # literal from a str parameter
                    reason=Reason(kind="hang"), policy_rule="test")


def fault(s: float, attempt: int | None = 0, fid: str = "f1", level: str = "fault") -> Fault:
    """A classified fault first seen at ``s``."""
    return Fault(event_id=fid, event_time=at(s), cluster="c1", fault_id=fid, node_id="n0", job_id=JOB,
                 category="xid_79", family="gpu", level=level, blame="node", rule_id="t",  # type: ignore[arg-type]  # literal from a str parameter
                 evidence="x", first_seen=at(s), count=1, attempt=attempt)


def incident(s: float, root: str, attempt: int = 0) -> Incident:
    """An incident of ``attempt`` whose root cause is fault ``root``, last seen at ``s``."""
    return Incident(event_id=f"i-{root}", event_time=at(s), cluster="c1", incident_id=f"i-{root}", job_id=JOB,
                    attempt=attempt, root_cause=root, category="xid_79", blame="node",
                    first_seen=at(s), last_seen=at(s))


def gpu(s: float) -> GpuSample:
    """A GPU sample of node n0 (the ETT stage ignores it but for event time)."""
    stats = GpuStats(index=0, util_pct=90.0, sm_active=0.8, mem_used_bytes=1, temp_c=60.0, power_w=400.0,
                     ecc_sbe_total=0, ecc_dbe_total=0, xid_last=None, nvlink_crc_errors_total=0,
                     pcie_replay_total=0, throttle_reasons=0)
    return GpuSample(event_id=f"g-{s}", event_time=at(s), cluster="c1", node_id="n0", gpus=(stats,))


def run(events: Sequence[Event], settings: EttSettings | None = None, flush_at: float | None = None,
        state: EttState | None = None) -> list[EttInterval]:
    """Feed ``events`` in order, then flush at ``flush_at`` (default: the last event's time)."""
    detector = EttDetector(settings)
    st = state or detector.initial()
    out: list[Event] = []
    for event in events:
        st, produced = detector.step(st, event)
        out.extend(produced)
    now = at(flush_at) if flush_at is not None else events[-1].event_time
    st, produced = detector.flush(st, now)
    out.extend(produced)
    return [o for o in out if isinstance(o, EttInterval)]


def run_with_reload(events: Sequence[Event], cut: int, settings: EttSettings | None = None) -> list[EttInterval]:
    """Like :func:`run`, but the state goes through JSON (dump, dumps, loads, load) after ``cut`` events."""
    detector = EttDetector(settings)
    st = detector.initial()
    out: list[Event] = []
    for i, event in enumerate(events):
        if i == cut:
            st = detector.load(json.loads(json.dumps(detector.dump(st))))
        st, produced = detector.step(st, event)
        out.extend(produced)
    st, produced = detector.flush(st, events[-1].event_time)
    return [o for o in out + produced if isinstance(o, EttInterval)]


def spans(intervals: Iterable[EttInterval]) -> list[tuple[str, float, float, int]]:
    """(kind, start s, end s, attempt) of each interval, sorted by start, grid-cut runs merged."""
    merged: list[tuple[str, float, float, int]] = []
    for iv in sorted(intervals, key=lambda i: i.start):
        item = (iv.kind, secs(iv.start), secs(iv.end), iv.attempt)
        last = merged[-1] if merged else None
        if last and last[0] == item[0] and last[3] == item[3] and last[2] == item[1]:
            merged[-1] = (last[0], last[1], item[2], last[3])
        else:
            merged.append(item)
    return merged


def assert_tiles(intervals: Sequence[EttInterval], start: float, end: float) -> None:
    """The intervals cover [start, end] exactly once: sorted, each begins where the last ended."""
    ordered = sorted(intervals, key=lambda i: i.start)
    assert ordered, "no intervals"
    assert secs(ordered[0].start) == start
    for a, b in zip(ordered, ordered[1:], strict=False):
        assert a.end == b.start, f"gap or overlap between {a.kind} {a.end} and {b.kind} {b.start}"
    assert secs(ordered[-1].end) == end
    for iv in ordered:
        assert iv.start < iv.end
    assert len({iv.event_id for iv in ordered}) == len(ordered)
