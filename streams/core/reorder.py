"""Event-time reordering with bounded lateness, shared by replay and the Faust agents.

Events of one key arrive from several topics, each in order, but interleaved by arrival,
and some (GPU and network samples) take an extra hop to be re-keyed by job. The buffer
holds events until the key's watermark passes them, then releases them in
(event_time, schema, event_id) order, so that streaming and replay feed detectors the same
sequence.

The watermark is the slowest *periodic* source of the key (GPU, network, stack and
collective samples of each node, which flow all the time while a job lives) minus ``lateness``, as in
stream processors that take the minimum watermark over their inputs. Sporadic sources
(logs, steps, lifecycle, faults) never hold the watermark back: a silent log is a hang
signal, not a reason to wait. An event older than what was already released is *late*: it
is released at once (never dropped) and counted.

Idleness is judged per *path*, so that it does not depend on how fast each path is
processed. Node telemetry (GPU and network samples) reaches a job through an extra re-keying
hop; job telemetry (stacks, collectives) and sporadic events come straight. A node-path
source is idle when it lags the newest node-path source by more than ``max_skew`` (a dead
node's agent must not stall its job; a backlog drained at any speed lags all sources of the
path alike), and the whole node path is idle when it lags the newest event by more than
``path_skew`` (every node went silent at once). A job-path source takes no extra hop, so it
is idle when it lags the newest event by more than ``max_skew``: when a job's processes die,
their stacks stop while the nodes' samples go on, and the job must not wait for them.

Cost: a push is O(log n) in the held events plus amortised O(log s) in the sources: the
slowest source is the top of a lazily maintained min-heap of (latest time, source), so
nothing scans the job's nodes per event (a 1,024-node job has ~4,000 sources).
"""

from __future__ import annotations

import heapq
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from schemas import Event, decode, format_time, parse_time

PATH_OF_KIND = {"gpu_sample": "node", "net_sample": "node", "stack_sample": "job", "collective_progress": "job"}
"""The periodic kinds, by the path they take to a job (``node``: re-keyed from node-keyed topics)."""
PERIODIC_KINDS = frozenset(PATH_OF_KIND)

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)

Held = tuple[int, str, str, int, Event]
"""(event time in µs since the epoch, schema, event_id, arrival number, event): compared by
its first four, so a redelivered duplicate never reaches the event itself; integers compare
much faster than aware datetimes in a heap."""


def time_us(moment: datetime) -> int:
    """Microseconds since the Unix epoch of an aware datetime (exact)."""
    return (moment - EPOCH) // _US


def from_us(us: int) -> datetime:
    """Inverse of :func:`time_us`."""
    return EPOCH + timedelta(microseconds=us)


def order_key(event: Event) -> tuple[int, str, str]:
    """The total order in which events of one key are processed."""
    return (time_us(event.event_time), event.schema_, event.event_id)


def _held(event: Event, arrival: int) -> Held:
    return (time_us(event.event_time), event.schema_, event.event_id, arrival, event)


def source_of(event: Event) -> str | None:
    """The periodic source an event belongs to (kind and node), or None for sporadic events.

    One source per kind and node: nodes' samples are re-keyed through different partitions,
    so one node's newer sample says nothing about another's."""
    if event.KIND not in PERIODIC_KINDS:
        return None
    return f"{event.KIND}|{getattr(event, 'node_id', '')}"


@dataclass
class ReorderBuffer:
    """Pending events of one key plus its watermark; JSON-serialisable via dump/load."""

    held: list[Held] = field(default_factory=list)
    max_seen: datetime | None = None
    released_to: datetime | None = None
    late: int = 0
    arrivals: int = 0
    source_max: dict[str, datetime] = field(default_factory=dict)
    path_max: dict[str, datetime] = field(default_factory=dict)
    _slowest: dict[str, list[tuple[datetime, str]]] = field(default_factory=dict)
    """Per path, a min-heap of (time, source); an entry is current iff its time is ``source_max[source]``."""
    duplicates: int = 0
    """Events dropped because an equal event (same id and content) was still held."""
    _by_id: dict[str, Event] = field(default_factory=dict)
    """The held events by id: an equal event arriving again while one is held is a duplicate
    (event ids are unique per the contract). One re-read after its original was released
    is late instead, and processed again."""

    def push(self, event: Event, lateness: timedelta, max_skew: timedelta = timedelta(seconds=60),
             path_skew: timedelta = timedelta(seconds=300)) -> list[Event]:
        """Add ``event``; return the events now safe to process, in order."""
        time = event.event_time
        if self.released_to is not None and time < self.released_to:
            self.late += 1
            self._track(event)  # a path whose first events came late must still hold the watermark from now on
            return [event]
        if self._by_id.get(event.event_id) == event:  # redelivered (a producer retry, a re-read after a crash)
            self.duplicates += 1
            return []
        self.arrivals += 1
        self._by_id[event.event_id] = event
        heapq.heappush(self.held, _held(event, self.arrivals))
        if self.max_seen is None or time > self.max_seen:
            self.max_seen = time
        self._track(event)
        return self._release(self._watermark(self.max_seen, max_skew, path_skew) - lateness)

    def _track(self, event: Event) -> None:
        """Advance the latest time of ``event``'s periodic source (if it has one)."""
        source = source_of(event)
        time = event.event_time
        if source is not None and (source not in self.source_max or time > self.source_max[source]):
            path = PATH_OF_KIND[event.KIND]
            self.source_max[source] = time
            if path not in self.path_max or time > self.path_max[path]:
                self.path_max[path] = time
            heapq.heappush(self._slowest.setdefault(path, []), (time, source))

    def _watermark(self, newest: datetime, max_skew: timedelta, path_skew: timedelta) -> datetime:
        """The slowest live periodic source's latest time (``newest`` if there is none).

        Stale heap entries (a source that has moved on) and idle sources (older than their
        path's newest less ``max_skew``, which only grows) are popped for good: an idle source
        that speaks again pushes a fresh entry. A path lagging ``newest`` by more than
        ``path_skew`` holds nothing back."""
        mark = newest
        for path, heap in self._slowest.items():
            top = self.path_max[path] if path == "node" else newest
            while heap and (heap[0][0] != self.source_max.get(heap[0][1]) or top - heap[0][0] > max_skew):
                heapq.heappop(heap)
            if heap and newest - top <= path_skew and heap[0][0] < mark:
                mark = heap[0][0]
        return mark

    def drain(self) -> list[Event]:
        """Release everything held (end of input)."""
        if self.max_seen is None:
            return []
        return self._release(self.max_seen)

    def _release(self, watermark: datetime) -> list[Event]:
        out: list[Event] = []
        held = self.held
        limit = time_us(watermark) if watermark.year < 9999 else 2**63
        while held and held[0][0] <= limit:
            event = heapq.heappop(held)[4]
            if self._by_id.get(event.event_id) is event:
                del self._by_id[event.event_id]
            out.append(event)
        if out:
            self.released_to = out[-1].event_time
        return out

    def dump(self) -> dict[str, Any]:
        """JSON-ready state; held events are kept in wire form."""
        return {
            "held": [h[4].to_wire() for h in sorted(self.held, key=lambda h: h[:4])],
            "max_seen": format_time(self.max_seen) if self.max_seen else None,
            "released_to": format_time(self.released_to) if self.released_to else None,
            "late": self.late,
            "duplicates": self.duplicates,
            "source_max": {k: format_time(v) for k, v in sorted(self.source_max.items())},
        }

    @staticmethod
    def _paths(source_max: dict[str, datetime]) -> tuple[dict[str, datetime], dict[str, list[tuple[datetime, str]]]]:
        """Per-path newest times and source heaps rebuilt from the sources' latest times."""
        path_max: dict[str, datetime] = {}
        heaps: dict[str, list[tuple[datetime, str]]] = {}
        for source, moment in source_max.items():
            path = PATH_OF_KIND[source.split("|", 1)[0]]
            path_max[path] = max(moment, path_max.get(path, moment))
            heaps.setdefault(path, []).append((moment, source))
        for heap in heaps.values():
            heapq.heapify(heap)
        return path_max, heaps

    @classmethod
    def load(cls, data: dict[str, Any]) -> ReorderBuffer:
        """Rebuild a buffer from :meth:`dump` output."""
        events = [decode(json.dumps(w)) for w in data.get("held", [])]
        held = [_held(e, n) for n, e in enumerate(events) if e.KIND != "dead_letter"]
        heapq.heapify(held)
        by_id = {h[4].event_id: h[4] for h in held}
        source_max = {k: parse_time(v) for k, v in data.get("source_max", {}).items()}
        path_max, slowest = cls._paths(source_max)
        return cls(
            held=held,
            max_seen=parse_time(data["max_seen"]) if data.get("max_seen") else None,
            released_to=parse_time(data["released_to"]) if data.get("released_to") else None,
            late=int(data.get("late", 0)),
            arrivals=len(held),
            source_max=source_max,
            path_max=path_max,
            _slowest=slowest,
            duplicates=int(data.get("duplicates", 0)),
            _by_id=by_id,
        )
