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
processed, and against the path's *median* source, so that one node's clock cannot decide
it. Node telemetry (GPU and network samples) reaches a job through an extra re-keying hop;
job telemetry (stacks, collectives) comes straight. A node-path source is idle when it lags
the median node-path source by more than ``max_skew`` (a dead node's agent must not stall its
job; a backlog drained at any speed lags all sources of the path alike); a job-path source
is idle when it lags the job's reference (the later of the paths' medians) by more than
``max_skew``: when a job's processes die, their stacks stop while the nodes' samples go on,
and the job must not wait for them. A node whose every source, on both paths, lags the
job's reference by more than ``dead_node`` (and three of its own sampling intervals) is idle
at once, without waiting for ``max_skew``: it has died or lost its network, and its silence
is what the detectors must see, within a sampling interval or three (a node sampling on one
path only, which a lagging re-keying hop could delay, after twice ``dead_node``).
The whole node path is idle when it lags the newest event by more than ``path_skew`` (every
node went silent at once). A node whose clock runs
ahead moves neither median: its events are held until the others reach their time (with
the newest source as reference, a node a few minutes ahead made every other source idle and
its clock the job's, so that the detectors saw the whole job silent).

Cost: a push is O(1) in the held events when it comes after every event held (most do: each
topic arrives in order), else O(log n), plus O(log s) in the sources: each path's
sources' latest times are kept sorted (the median is an index), and the slowest source is
the top of a lazily maintained min-heap of (latest time, source), so nothing scans the job's
nodes per event (a 1,024-node job has ~4,000 sources). Medians of latest times never
decrease, so a source found idle stays idle until it speaks again.
"""

from __future__ import annotations

import heapq
import json
from bisect import bisect_left, insort
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from schemas import Event, decode, format_time, parse_time

PATH_OF_KIND = {"gpu_sample": "node", "net_sample": "node", "stack_sample": "job", "collective_progress": "job"}
"""The periodic kinds, by the path they take to a job (``node``: re-keyed from node-keyed topics)."""
PERIODIC_KINDS = frozenset(PATH_OF_KIND)

DEAD_INTERVALS = 3
"""A node is dead once silent for this many of each source's own sampling intervals (and at
least ``dead_node``): one missed sample is jitter, three are not."""

ONE_PATH_FACTOR = 2
"""A node sampling on one path only is dead after twice ``dead_node`` (see ``_dead``)."""

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)

Held = tuple[int, str, str, int, Event]
"""(event time in µs since the epoch, schema, event_id, arrival number, event): compared by
its first four, so a redelivered duplicate never reaches the event itself; integers compare
much faster than aware datetimes in a heap."""

_NEVER_US = 1 << 62
"""Later than any event time in µs (2200 is ~7.3e15 µs): the oldest time of an empty buffer."""


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


Slowest = dict[str, list[tuple[int, str]]]
"""Per path, a min-heap of (latest time in µs, source)."""
Latest = dict[str, list[int]]
"""Per path, the latest times in µs of its sources, a sorted list (the path's median is an index;
bisection and a C memmove beat a balanced tree at a job's few thousand sources)."""


@dataclass
class ReorderBuffer:
    """Pending events of one key plus its watermark; JSON-serialisable via dump/load.

    Every time inside is integer microseconds since the epoch (``*_us``): one conversion per
    event, and integer comparisons in the heaps instead of aware datetimes."""

    _queue: deque[Held] = field(default_factory=deque)
    """Held events that came after every event queued before them: in order, a FIFO."""
    _stray: list[Held] = field(default_factory=list)
    """The other held events: a min-heap. The oldest held event is the older of the two heads."""
    max_seen_us: int | None = None
    released_to_us: int | None = None
    late: int = 0
    arrivals: int = 0
    source_max_us: dict[str, int] = field(default_factory=dict)
    source_gap_us: dict[str, int] = field(default_factory=dict)
    """Each periodic source's latest interval between samples (its sampling cadence)."""
    _latest: Latest = field(default_factory=dict)
    _slowest: Slowest = field(default_factory=dict)
    """Per path, a min-heap of (time, source); an entry is current iff its time is ``source_max_us[source]``."""
    duplicates: int = 0
    """Events dropped because an equal event (same id and content) was still held."""
    _by_id: dict[str, Event] = field(default_factory=dict)
    """The held events by id: an equal event arriving again while one is held is a duplicate
    (event ids are unique per the contract). One re-read after its original was released
    is late instead, and processed again."""

    @property
    def held(self) -> list[Held]:
        """Every held event (in no particular order)."""
        return [*self._queue, *self._stray]

    @property
    def max_seen(self) -> datetime | None:
        """The newest event time pushed (None before the first event)."""
        return None if self.max_seen_us is None else from_us(self.max_seen_us)

    @property
    def released_to(self) -> datetime | None:
        """The event time of the last event released in order (None before the first)."""
        return None if self.released_to_us is None else from_us(self.released_to_us)

    def push(self, event: Event, lateness: timedelta, max_skew: timedelta = timedelta(seconds=60),
             path_skew: timedelta = timedelta(seconds=300), dead_node: timedelta = timedelta(seconds=15)
             ) -> list[Event]:
        """Add ``event``; return the events now safe to process, in order."""
        return self.push_us(event, lateness // _US, max_skew // _US, path_skew // _US, dead_node // _US)

    def push_us(self, event: Event, lateness_us: int, max_skew_us: int, path_skew_us: int,
                dead_node_us: int = 15_000_000) -> list[Event]:
        """:meth:`push` with the durations in integer microseconds (the per-event path)."""
        t_us = time_us(event.event_time)
        if self.released_to_us is not None and t_us < self.released_to_us:
            self.late += 1
            self._track(event, t_us)  # a path whose first events came late must still hold the watermark from now on
            return [event]
        event_id = event.event_id
        same = self._by_id.get(event_id)
        if same is not None and same == event:  # redelivered (a producer retry, a re-read after a crash)
            self.duplicates += 1
            return []
        self.arrivals += 1
        self._by_id[event_id] = event
        item = (t_us, event.schema_, event_id, self.arrivals, event)
        queue = self._queue
        if queue and item < queue[-1]:
            heapq.heappush(self._stray, item)
        else:
            queue.append(item)
        if self.max_seen_us is None or t_us > self.max_seen_us:
            self.max_seen_us = t_us
        self._track(event, t_us)
        limit_us = self._watermark_us(self.max_seen_us, max_skew_us, path_skew_us, dead_node_us) - lateness_us
        if self._oldest_us() > limit_us:
            return []  # nothing due: most pushes
        return self._release(limit_us)

    def _track(self, event: Event, t_us: int) -> None:
        """Advance the latest time of ``event``'s periodic source, if it has one.

        One source per periodic kind and node (``kind|node``): nodes' samples are re-keyed
        through different partitions, so one node's newer sample says nothing about another's."""
        path = PATH_OF_KIND.get(event.KIND)
        if path is None:
            return
        source = f"{event.KIND}|{getattr(event, 'node_id', '')}"
        latest = self.source_max_us.get(source)
        if latest is None or t_us > latest:
            self.source_max_us[source] = t_us
            if latest is not None:
                self.source_gap_us[source] = t_us - latest
            times = self._latest.get(path)
            if times is None:
                times = self._latest[path] = []
            if latest is not None:
                del times[bisect_left(times, latest)]
            insort(times, t_us)
            heapq.heappush(self._slowest.setdefault(path, []), (t_us, source))

    def _median_us(self, path: str) -> int | None:
        """The median (upper, for an even count) latest time of ``path``'s sources."""
        times = self._latest.get(path)
        return times[len(times) // 2] if times else None

    def _watermark_us(self, newest_us: int, max_skew_us: int, path_skew_us: int, dead_node_us: int) -> int:
        """The slowest live periodic source's latest time (``newest_us`` if there is none).

        Stale heap entries (a source that has moved on) and idle sources (older than their
        path's reference less ``max_skew``: the node path's median, or for the job path the
        later of the two medians; or of a dead node, see :meth:`_dead`; references never
        decrease) are popped for good: an idle source that speaks again pushes a fresh entry.
        A node path whose median lags ``newest_us`` by more than ``path_skew`` holds nothing
        back. O(log s) per event."""
        mark_us = newest_us
        source_max_us = self.source_max_us
        node_us, job_us = self._median_us("node"), self._median_us("job")
        if node_us is None or job_us is None:
            job_ref_us = node_us if job_us is None else job_us
            job_ref_us = newest_us if job_ref_us is None else job_ref_us
        else:
            job_ref_us = max(node_us, job_us)
        for path, heap in self._slowest.items():
            top_us = node_us if path == "node" and node_us is not None else job_ref_us
            while heap and (heap[0][0] != source_max_us.get(heap[0][1]) or top_us - heap[0][0] > max_skew_us
                            or (job_ref_us - heap[0][0] > dead_node_us and self._dead(heap[0][1], job_ref_us,
                                                                                      dead_node_us))):
                heapq.heappop(heap)
            if heap and newest_us - top_us <= path_skew_us and heap[0][0] < mark_us:
                mark_us = heap[0][0]
        return mark_us

    def _dead(self, source: str, ref_us: int, dead_node_us: int) -> bool:
        """Whether ``source``'s node has gone silent: every one of its sources older than
        ``ref_us`` less three of its own sampling intervals and ``dead_node_us`` if the node
        samples on both paths (node samples, GPU or network, and job samples, stacks or
        collectives: a lagging route hop delays the first, never the second), or twice that
        if on one path only (the worker reads its partitions within 30 s of event time of each
        other, ``align.py``, so a lag past that is not reading). Looks at the node's four
        possible sources only (called for the slowest source, rarely)."""
        node = source.split("|", 1)[1]
        latest = {kind: self.source_max_us.get(f"{kind}|{node}") for kind in PATH_OF_KIND}
        paths = {PATH_OF_KIND[kind] for kind, latest_us in latest.items() if latest_us is not None}
        floor_us = dead_node_us if len(paths) == 2 else ONE_PATH_FACTOR * dead_node_us
        for kind, latest_us in latest.items():
            gap_us = self.source_gap_us.get(f"{kind}|{node}", 0)
            if latest_us is not None and ref_us - latest_us <= max(floor_us, DEAD_INTERVALS * gap_us):
                return False
        return True

    def drain(self) -> list[Event]:
        """Release everything held (end of input)."""
        if self.max_seen_us is None:
            return []
        return self._release(self.max_seen_us)

    def _oldest_us(self) -> int:
        """The event time of the oldest held event (:data:`_NEVER_US` if none)."""
        queue, stray = self._queue, self._stray
        first_us = queue[0][0] if queue else _NEVER_US
        return stray[0][0] if stray and stray[0][0] < first_us else first_us

    def _release(self, limit_us: int) -> list[Event]:
        """Pop, in (time, schema, id, arrival) order, every held event at or before ``limit_us``."""
        out: list[Event] = []
        queue, stray = self._queue, self._stray
        by_id = self._by_id
        while True:
            if stray and (not queue or stray[0] < queue[0]):
                if stray[0][0] > limit_us:
                    break
                t_us, _, event_id, _, event = heapq.heappop(stray)
            elif queue and queue[0][0] <= limit_us:
                t_us, _, event_id, _, event = queue.popleft()
            else:
                break
            if by_id.get(event_id) is event:
                del by_id[event_id]
            out.append(event)
            self.released_to_us = t_us
        return out

    def dump(self) -> dict[str, Any]:
        """JSON-ready state; held events are kept in wire form."""
        return {
            "held": [h[4].to_wire() for h in sorted(self.held, key=lambda h: h[:4])],
            "max_seen": _format_us(self.max_seen_us),
            "released_to": _format_us(self.released_to_us),
            "late": self.late,
            "duplicates": self.duplicates,
            "source_max": {k: format_time(from_us(v)) for k, v in sorted(self.source_max_us.items())},
            "source_gap_us": dict(sorted(self.source_gap_us.items())),
        }

    @staticmethod
    def _paths(source_max_us: dict[str, int]) -> tuple[Latest, Slowest]:
        """Per-path sorted latest times and source heaps rebuilt from the sources' latest times."""
        latest: Latest = {}
        heaps: Slowest = {}
        for source, moment_us in source_max_us.items():
            path = PATH_OF_KIND[source.split("|", 1)[0]]
            insort(latest.setdefault(path, []), moment_us)
            heaps.setdefault(path, []).append((moment_us, source))
        for heap in heaps.values():
            heapq.heapify(heap)
        return latest, heaps

    @classmethod
    def load(cls, data: dict[str, Any]) -> ReorderBuffer:
        """Rebuild a buffer from :meth:`dump` output."""
        events = [decode(json.dumps(w)) for w in data.get("held", [])]
        held = sorted(_held(e, n) for n, e in enumerate(events) if e.KIND != "dead_letter")
        by_id = {h[4].event_id: h[4] for h in held}
        source_max_us = {k: time_us(parse_time(v)) for k, v in data.get("source_max", {}).items()}
        latest, slowest = cls._paths(source_max_us)
        return cls(
            _queue=deque(held),
            max_seen_us=_parse_us(data.get("max_seen")),
            released_to_us=_parse_us(data.get("released_to")),
            late=int(data.get("late", 0)),
            arrivals=len(held),
            source_max_us=source_max_us,
            source_gap_us={str(k): int(v) for k, v in data.get("source_gap_us", {}).items()},  # absent from older states
            _latest=latest,
            _slowest=slowest,
            duplicates=int(data.get("duplicates", 0)),
            _by_id=by_id,
        )


def _format_us(value_us: int | None) -> str | None:
    return format_time(from_us(value_us)) if value_us is not None else None


def _parse_us(text: str | None) -> int | None:
    return time_us(parse_time(text)) if text else None
