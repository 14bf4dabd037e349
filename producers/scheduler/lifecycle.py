"""Scheduler views of a job -> ``job_event``s, each transition once, with EVENTS.md's attempts.

A scheduler adapter reports what it sees now as a :class:`JobView`; the tracker compares it
with what it has already emitted and returns only the new events:

    first sight                 -> submitted (attempt = the scheduler's restart count)
    restart count grew, or a requeue of an attempt that had started
                                -> restarting, carrying the NEW attempt
    scheduled (nodes allocated) -> scheduled with the placement (not for a restart in place:
                                   same placement, never pending since the restart)
    running                     -> running (unless the training hook reports it)
    finished / failed / cancelled -> that kind, once per attempt; a job that ended before it
                                   was seen running still gets scheduled + running first,
                                   from its recorded start time, when it had nodes

Event ids are derived from (cluster, job, attempt, kind): a watcher restarted from scratch
re-emits the same ids, so downstream deduplication holds. Pure: no I/O, no clock.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from schemas import JobEvent, Placement

Phase = Literal["pending", "scheduled", "running", "ending", "finished", "failed", "cancelled"]
TERMINAL: frozenset[str] = frozenset({"finished", "failed", "cancelled"})


@dataclass(frozen=True)
class JobView:
    """What the scheduler says about one job right now.

    ``phase`` ``ending`` is a job tearing down (Slurm's COMPLETING): nothing is emitted for
    it. ``started_at`` is only read for phases at or past ``scheduled``.
    """

    job_id: str
    phase: Phase
    attempt: int = 0
    placement: tuple[Placement, ...] = ()
    requeued: bool = False
    submitted_at: datetime | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    detail: str | None = None


@dataclass
class Track:
    """What was emitted for one job: its current attempt and that attempt's kinds."""

    attempt: int
    emitted: set[str] = field(default_factory=set)
    missing: int = 0
    placement: tuple[Placement, ...] = ()
    waited: bool = False
    since: datetime | None = None


def job_event_id(cluster: str, job_id: str, attempt: int, kind: str) -> str:
    """The id of the ``kind`` transition of ``job_id``'s ``attempt``: the watcher and the
    prolog/epilog (``faultline jobs emit``) give the same transition the same id."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"faultline:job:{cluster}:{job_id}:{attempt}:{kind}"))


class LifecycleTracker:
    """Turns successive :class:`JobView`s of many jobs into new ``job_event``s."""

    def __init__(self, cluster: str, emit_running: bool = True, forget_after: int = 3) -> None:
        self.cluster = cluster
        self.emit_running = emit_running
        self.forget_after = forget_after
        self.jobs: dict[str, Track] = {}
        self.vanished = 0

    def _event(self, view: JobView, track: Track, kind: str, at: datetime,
               placement: tuple[Placement, ...] = (), detail: str | None = None) -> JobEvent:
        track.emitted.add(kind)
        if track.since is not None and at < track.since:
            at = track.since  # a late-observed restart: the attempt's events never precede its start
        event_id = job_event_id(self.cluster, view.job_id, track.attempt, kind)
        return JobEvent(event_id=event_id, event_time=at, cluster=self.cluster, job_id=view.job_id,
                        attempt=track.attempt, kind=kind, placement=placement, detail=detail)  # type: ignore[arg-type]  # kind is a JobEventKind

    def observe(self, view: JobView, now: datetime) -> list[JobEvent]:
        """The new events implied by ``view`` (``now``: the observation time, for events the
        scheduler records no time of)."""
        events: list[JobEvent] = []
        track = self.jobs.get(view.job_id)
        if track is None:
            track = self.jobs[view.job_id] = Track(attempt=view.attempt)
            events.append(self._event(view, track, "submitted", view.submitted_at or now))
        track.missing = 0
        events += self._restart(view, track, now)
        events += self._progress(view, track, now)
        return events

    def _restart(self, view: JobView, track: Track, now: datetime) -> list[JobEvent]:
        started = bool(track.emitted & ({"scheduled", "running"} | TERMINAL))
        new_attempt = max(view.attempt, track.attempt)
        if view.requeued and started and new_attempt == track.attempt:
            new_attempt += 1
        if new_attempt == track.attempt:
            return []
        track.attempt, track.emitted, track.waited, track.since = new_attempt, set(), False, now
        return [self._event(view, track, "restarting", now, detail=view.detail)]

    def _progress(self, view: JobView, track: Track, now: datetime) -> list[JobEvent]:
        events: list[JobEvent] = []
        if track.emitted & TERMINAL:  # an ended attempt only changes through a restart
            return events
        track.waited = track.waited or view.phase == "pending"
        ran = view.phase in ("scheduled", "running") or (view.phase in TERMINAL and bool(view.placement))
        if ran and view.placement and "scheduled" not in track.emitted:
            if self._in_place(track, view):
                track.emitted.add("scheduled")
            else:
                track.placement = view.placement
                events.append(self._event(view, track, "scheduled", view.started_at or now, placement=view.placement))
        ran_fully = view.phase == "running" or (view.phase in TERMINAL and bool(view.placement))
        if ran_fully and self.emit_running and "running" not in track.emitted:
            at = view.started_at if events and view.started_at else now
            events.append(self._event(view, track, "running", at))
        if view.phase in TERMINAL and not (track.emitted & TERMINAL):
            events.append(self._event(view, track, view.phase, view.ended_at or now, detail=view.detail))
        return events

    @staticmethod
    def _in_place(track: Track, view: JobView) -> bool:
        """A restart on the same placement that never waited for resources has no ``scheduled``
        (ETT.md: a restart in place has none)."""
        return track.attempt > 0 and not track.waited and view.placement == track.placement

    def sweep(self, seen: set[str]) -> None:
        """Forget jobs absent from ``forget_after`` consecutive listings (after their end, or
        counted in ``vanished`` when they disappeared without a terminal state)."""
        for job_id in [j for j in self.jobs if j not in seen]:
            track = self.jobs[job_id]
            track.missing += 1
            if track.missing >= self.forget_after:
                if not track.emitted & TERMINAL:
                    self.vanished += 1
                del self.jobs[job_id]
