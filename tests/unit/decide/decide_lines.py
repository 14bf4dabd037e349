"""Real-format log lines through the real classifier, then incident stage, policy and guards.

``decide_lines`` is ``decide_all`` for scenarios written as log lines: every ``LogLine`` goes
through :class:`streams.classify.detector.ClassifyDetector` (the knowledge base of the
repository) keyed as the pipeline keys it, and the faults it yields (first sighting and closing
re-issue) join the other events, so a test reads line -> fault -> incident -> decision.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from datetime import datetime
from functools import cache
from typing import Any

from decide_chain import run_all
from decide_events import at

from schemas import Decision, Event, Incident, LogLine
from streams.classify.detector import END_OF_INPUT, ClassifyDetector
from streams.decide import GuardSettings, PolicySettings


@cache
def classifier() -> ClassifyDetector:
    """The classify stage with the repository's knowledge base (loaded once per session)."""
    return ClassifyDetector()


def kline(s: float, node: str, text: str, cluster: str = "c1") -> LogLine:
    """A kernel log line of ``node`` at ``s`` (no job: routed by placement)."""
    return LogLine(event_id=f"k-{node}-{s}-{zlib.crc32(text.encode()):08x}", event_time=at(s), cluster=cluster,
                   node_id=node, source="kernel", line=text)


def tline(s: float, node: str, rank: int, text: str, job_id: str = "j1", attempt: int | None = None,
          source: str = "training", cluster: str = "c1") -> LogLine:
    """A training (or ``source="nccl"``) output line of ``rank`` on ``node`` at ``s``."""
    return LogLine(event_id=f"t-{job_id}-{rank}-{s}-{zlib.crc32(text.encode()):08x}", event_time=at(s),
                   cluster=cluster, node_id=node, job_id=job_id, rank=rank,
                   source=source, line=text, attempt=attempt)  # type: ignore[arg-type]  # literal from str


def classify_key(event: Event) -> str | None:
    """The classify stage's state key of a log line: its topic and message key, as the pipeline has it."""
    if not isinstance(event, LogLine):
        return None
    if event.source in ("kernel", "system"):
        return f"kernel|{event.node_id}"
    return f"log|{event.job_id or event.node_id}"


def classify_all(events: Iterable[Event], in_order: bool = False) -> list[Event]:
    """``events`` plus the faults the classify stage derives from their log lines, each fault
    right after its line (``in_order``: in the given arrival order, else by event time)."""
    detector, states, out = classifier(), dict[str, Any](), list[Event]()
    for event in (list(events) if in_order else sorted(events, key=lambda e: e.event_time)):
        out.append(event)
        key = classify_key(event)
        if key is None:
            continue
        states[key], faults = detector.step(states.get(key) or detector.initial(), event)
        out += faults
    for key in sorted(states):
        states[key], faults = detector.flush(states[key], END_OF_INPUT)
        out += faults
    return out


def run_lines(events: Iterable[Event], until: float | None = None, policy: PolicySettings | None = None,
              guards: GuardSettings | None = None, in_order: bool = False) -> tuple[list[Decision], list[Incident]]:
    """Decisions and incidents of a scenario with log lines, flushed at ``until`` (seconds);
    ``in_order`` feeds the events in the given (arrival) order."""
    end: datetime | None = at(until) if until is not None else None
    return run_all(classify_all(events, in_order), policy, guards, until=end, in_order=in_order)


def decide_lines(events: Iterable[Event], until: float | None = None, policy: PolicySettings | None = None,
                 guards: GuardSettings | None = None) -> list[Decision]:
    """The final decisions of a scenario with log lines."""
    return run_lines(events, until, policy, guards)[0]
