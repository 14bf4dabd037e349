"""What every collector shares: the collector protocol, event ids and agent notices.

A collector is polled by the runner (``producers.agent.runner``) on its own interval and
returns the events of one round; raising means "this round failed" (counted, logged and
retried with backoff by the runner), never the end of the agent.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol

from schemas import Event
from schemas.telemetry import LogLine, LogSource

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The wall clock as an aware UTC datetime: producers stamp observations with it."""
    return datetime.now(UTC)


def new_event_id() -> str:
    """A fresh producer event id (UUID4, hex), as EVENTS.md asks of producers."""
    return uuid.uuid4().hex


class Collector(Protocol):
    """One source of events, polled every ``interval_s`` seconds."""

    name: str
    interval_s: float

    def collect(self) -> list[Event]:
        """The events observed since the previous call (raise to report a failed round)."""
        ...


def notice(cluster: str, node_id: str, text: str, *, at: datetime | None = None,
           source: LogSource = "system") -> LogLine:
    """A log line the agent itself writes about the node (lost GPU, kmsg gap, ...).

    It goes to ``telemetry.kernel`` like any system line, so the classifier sees it.
    """
    return LogLine(event_id=new_event_id(), event_time=at or utc_now(), cluster=cluster,
                   node_id=node_id, source=source, line=f"faultline-agent: {text}")
