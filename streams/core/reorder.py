"""Event-time reordering with bounded lateness, shared by replay and the Faust agents.

Events of one key arrive from several topics, each in order, but interleaved by arrival,
and some (GPU and network samples) take an extra hop to be re-keyed by job. The buffer
holds events until the key's watermark passes them, then releases them in
(event_time, schema, event_id) order, so that streaming and replay feed detectors the same
sequence.

The watermark is the slowest *periodic* source of the key (GPU, network, stack and
collective samples of each node, which flow all the time while a job lives) minus ``lateness``, as in
stream processors that take the minimum watermark over their inputs. A periodic source
that lags the newest event by more than ``max_skew`` is treated as idle (a dead node's
agent must not stall its job), and sporadic sources (logs, steps, lifecycle, faults) never
hold the watermark back: a silent log is a hang signal, not a reason to wait. An event
older than what was already released is *late*: it is released at once (never dropped)
and counted.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from schemas import Event, decode, format_time, parse_time

PERIODIC_KINDS = frozenset({"gpu_sample", "net_sample", "stack_sample", "collective_progress"})


def order_key(event: Event) -> tuple[datetime, str, str]:
    """The total order in which events of one key are processed."""
    return (event.event_time, event.schema_, event.event_id)


@dataclass(order=True)
class _Held:
    sort: tuple[datetime, str, str]
    event: Event = field(compare=False)


@dataclass
class ReorderBuffer:
    """Pending events of one key plus its watermark; JSON-serialisable via dump/load."""

    held: list[_Held] = field(default_factory=list)
    max_seen: datetime | None = None
    released_to: datetime | None = None
    late: int = 0
    source_max: dict[str, datetime] = field(default_factory=dict)

    def push(self, event: Event, lateness: timedelta, max_skew: timedelta = timedelta(seconds=60)) -> list[Event]:
        """Add ``event``; return the events now safe to process, in order."""
        if self.released_to is not None and event.event_time < self.released_to:
            self.late += 1
            return [event]
        heapq.heappush(self.held, _Held(order_key(event), event))
        time = event.event_time
        if self.max_seen is None or time > self.max_seen:
            self.max_seen = time
        if event.KIND in PERIODIC_KINDS:
            # one source per kind and node: nodes' samples are re-keyed through different
            # partitions, so one node's newer sample says nothing about another's
            source = f"{event.KIND}|{getattr(event, 'node_id', '')}"
            if source not in self.source_max or time > self.source_max[source]:
                self.source_max[source] = time
        return self._release(self._watermark(self.max_seen, max_skew) - lateness)

    def _watermark(self, newest: datetime, max_skew: timedelta) -> datetime:
        live = [t for t in self.source_max.values() if newest - t <= max_skew]
        return min(live, default=newest)

    def drain(self) -> list[Event]:
        """Release everything held (end of input)."""
        if self.max_seen is None:
            return []
        return self._release(self.max_seen)

    def _release(self, watermark: datetime) -> list[Event]:
        out: list[Event] = []
        while self.held and self.held[0].sort[0] <= watermark:
            out.append(heapq.heappop(self.held).event)
        if out:
            self.released_to = out[-1].event_time
        return out

    def dump(self) -> dict[str, Any]:
        """JSON-ready state; held events are kept in wire form."""
        return {
            "held": [h.event.to_wire() for h in sorted(self.held)],
            "max_seen": format_time(self.max_seen) if self.max_seen else None,
            "released_to": format_time(self.released_to) if self.released_to else None,
            "late": self.late,
            "source_max": {k: format_time(v) for k, v in sorted(self.source_max.items())},
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> ReorderBuffer:
        """Rebuild a buffer from :meth:`dump` output."""
        import json

        events = [decode(json.dumps(w)) for w in data.get("held", [])]
        held = [_Held(order_key(e), e) for e in events if isinstance(e, Event) and e.KIND != "dead_letter"]
        heapq.heapify(held)
        return cls(
            held=held,
            max_seen=parse_time(data["max_seen"]) if data.get("max_seen") else None,
            released_to=parse_time(data["released_to"]) if data.get("released_to") else None,
            late=int(data.get("late", 0)),
            source_max={k: parse_time(v) for k, v in data.get("source_max", {}).items()},
        )
