"""Builders of the events the incident stage consumes (test helpers, no I/O)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from schemas import Event, Fault, Incident, JobEvent, Placement, derived_id
from schemas.jobs import JobEventKind
from streams.incident import IncidentDetector, IncidentSettings

T0 = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    """T0 + ``seconds``."""
    return T0 + timedelta(seconds=seconds)


def lifecycle(kind: JobEventKind, s: float, attempt: int = 0, nodes: Iterable[str] = ()) -> JobEvent:
    """A job_event of job j1."""
    placement = tuple(Placement(rank=i, node_id=n) for i, n in enumerate(nodes))
    return JobEvent(event_id=f"je-{kind}-{s}-{attempt}", event_time=at(s), cluster="c1", job_id="j1",
                    attempt=attempt, kind=kind, placement=placement)


def fault(s: float, node: str | None, category: str, blame: str = "node", level: str = "error",
          action: str | None = None, attempt: int | None = None, count: int = 1,
          arrives: float | None = None) -> Fault:
    """A fault of job j1 first seen at ``s`` (delivered at ``arrives``, default ``s``)."""
    fid = derived_id("fault", node, category, at(s))
    return Fault(event_id=fid, event_time=at(arrives if arrives is not None else s), cluster="c1",
                 fault_id=fid, node_id=node, job_id="j1", category=category, family="test",
                 level=level, blame=blame, rule_id="test", evidence="line",  # type: ignore[arg-type]  # literal from str
                 first_seen=at(s), count=count, attempt=attempt, action=action)


def run(events: Iterable[Event], settings: IncidentSettings | None = None,
        until: float | None = None, reload_each_step: bool = False) -> list[Incident]:
    """Every incident (re)published for ``events`` fed in the given order, then a flush."""
    detector = IncidentDetector(settings)
    state, out = detector.initial(), list[Event]()
    last = T0
    for event in events:
        if reload_each_step:
            state = detector.load(detector.dump(state))
        state, emitted = detector.step(state, event)
        out += emitted
        last = max(last, event.event_time)
    state, emitted = detector.flush(state, at(until) if until is not None else last)
    return [e for e in [*out, *emitted] if isinstance(e, Incident)]


def latest(incidents: list[Incident]) -> dict[str, Incident]:
    """The latest version of each incident id."""
    out: dict[str, Incident] = {}
    for incident in incidents:
        out[incident.incident_id] = incident
    return out
