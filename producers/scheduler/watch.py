"""The polling loop of the Slurm watcher: list, translate, track, send.

One poll lists every job, keeps those the filter wants, turns each into a JobView (a
record that does not translate is counted in ``bad_records`` and skipped), feeds the
tracker and sends the new events in order. A failed listing is counted and retried at the
next poll. A sink failure is not caught: the caller's process stops (its events would be lost).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from producers.hooks.sinks import Sink
from producers.scheduler.lifecycle import LifecycleTracker
from producers.scheduler.slurm import JobFilter, SlurmError, view_of
from schemas import JobEvent

log = logging.getLogger(__name__)


@dataclass
class WatchStats:
    """Counters of a watcher."""

    polls: int = 0
    events: int = 0
    bad_records: int = 0
    poll_errors: int = 0


class SlurmWatcher:
    """Polls ``list_jobs`` (``squeue --json``) and sends each new job_event to ``sink``."""

    def __init__(self, tracker: LifecycleTracker, sink: Sink, list_jobs: Callable[[], list[dict[str, Any]]],
                 job_filter: JobFilter | None = None, ranks_per_node: int | None = None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.tracker, self.sink, self._list = tracker, sink, list_jobs
        self.filter = job_filter or JobFilter()
        self.ranks_per_node = ranks_per_node
        self._clock = clock
        self.stats = WatchStats()

    def poll_once(self) -> list[JobEvent]:
        """One listing; returns (and has sent) the new events."""
        self.stats.polls += 1
        try:
            jobs = self._list()
        except SlurmError as exc:
            self.stats.poll_errors += 1
            log.warning("slurm poll failed: %s", exc)
            return []
        now, seen, events = self._clock(), set(), []
        for job in jobs:
            if not isinstance(job, dict) or not self.filter.wants(job):
                continue
            try:
                view = view_of(job, self.ranks_per_node)
            except (KeyError, ValueError, TypeError) as exc:
                self.stats.bad_records += 1
                log.warning("slurm job record skipped: %s", exc)
                continue
            seen.add(view.job_id)
            events += self.tracker.observe(view, now)
        self.tracker.sweep(seen)
        for event in events:
            self.sink.send(event)
        self.stats.events += len(events)
        return events

    def run(self, interval_s: float, stop: threading.Event, max_polls: int | None = None) -> None:
        """Poll every ``interval_s`` until ``stop`` is set (or ``max_polls`` polls)."""
        while not stop.is_set():
            self.poll_once()
            self.sink.poll()
            if max_polls is not None and self.stats.polls >= max_polls:
                return
            stop.wait(interval_s)
