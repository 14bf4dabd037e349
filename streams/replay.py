"""``faultline replay``: the declared topology over JSON-lines files of v1 events, streaming.

Input lines are decoded (a bad line becomes a ``dead_letter`` event with stage ``decode``
or ``validate``, the file name as its topic and its line number as offset), put into
event-time order, fed through the same stages the Faust worker runs (``streams.topology``,
in a :class:`~streams.core.topology.LocalRunner`), and every derived event is written as one
JSON line. The output is a pure function of the input files and the detection settings: two
runs give the same bytes.

Memory is bounded by the reorder window, not the input: each file is read line by line
(``.gz`` files are decompressed on the fly), its events are held only until the file's
newest event time passes them by ``window_s`` (recordings of Kafka topics are ordered per
partition and interleaved by arrival, so a few minutes suffice), and several files are
merged by event time. An event older than what its file already released is processed
late, in arrival order, and counted.
"""

from __future__ import annotations

import gc
import gzip
import heapq
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO

from schemas import DeadLetter, Event, decode, encode
from schemas.mirror import ModelDecoder
from schemas.registry import EVENT_KINDS
from streams import topology
from streams.core.reorder import from_us, time_us
from streams.core.topology import LocalRunner
from streams.settings import DetectionSettings

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
DEFAULT_WINDOW_S = 300.0
"""How far (event time) an input line may be out of order in its file and still be placed
in order: 5 minutes, well beyond the disorder of a topic recording (seconds)."""

YOUNG_GC_OBJECTS = 20_000
"""Allocations between two young-generation collections during a replay (Python's default: 700)."""

Ordered = tuple[int, str, str, int, Event]
"""(event time µs, schema, event id, input file index, event): merged as plain tuples, so the
order key is computed once per event and equal keys fall back to the file order."""

_FAST = ModelDecoder(EVENT_KINDS.values())
"""Decodes what it is sure of straight into the models, several times faster than ``decode``,
which gives the same model (or the dead letter) for everything else."""

Progress = Callable[[int, int], None]
"""Called with (events read, bytes read) now and then during a replay."""


@dataclass
class ReplayResult:
    """What a replay read and wrote."""

    events: int = 0
    dead_letters: int = 0
    derived: int = 0
    late: int = 0


def open_input(path: Path) -> IO[bytes]:
    """A binary reader of ``path``, decompressing gzip (by magic number, whatever the name)."""
    with open(path, "rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    return gzip.GzipFile(path, "rb") if gzipped else open(path, "rb")  # type: ignore[return-value]


@dataclass
class _Reader:
    """One input file: decoded events in event-time order within ``window``, dead letters aside."""

    path: Path
    window: timedelta
    letters: list[DeadLetter]
    result: ReplayResult
    index: int = 0
    """The file's position among the inputs: events of equal order keys are taken file by file."""
    bytes_read: int = 0

    def events(self) -> Iterator[Ordered]:
        """This file's events with their order keys, in event-time order within ``window``."""
        held = _Held()
        window_us = self.window // timedelta(microseconds=1)
        newest_us: int | None = None
        released: int | None = None
        index = self.index
        with open_input(self.path) as handle:
            for number, line in enumerate(handle, start=1):
                self.bytes_read += len(line)
                event = self._decode(line, number, newest_us)
                if event is None:
                    continue
                t_us = time_us(event.event_time)  # the order key: (t_us, schema, id)
                if released is not None and t_us < released:
                    self.result.late += 1
                    yield t_us, event.schema_, event.event_id, index, event
                    continue
                held.push((t_us, event.schema_, event.event_id, number, event))  # the line number breaks ties
                newest_us = t_us if newest_us is None or t_us > newest_us else newest_us
                for t_us, schema, event_id, _, event in held.pop_through(newest_us - window_us):
                    released = t_us
                    yield t_us, schema, event_id, index, event
        for t_us, schema, event_id, _, event in held.pop_through(None):
            yield t_us, schema, event_id, index, event

    def _decode(self, line: bytes, number: int, newest_us: int | None) -> Event | None:
        raw = line.rstrip(b"\r\n")
        if not raw or raw.isspace():  # a blank line (no copy of the line to find out)
            return None
        self.result.events += 1
        event = _FAST.decode(raw) or decode(raw, source_topic=self.path.name, offset=number)
        if isinstance(event, DeadLetter):
            # the letter's id does not depend on its time: the file's newest time is set only here
            if newest_us is not None:
                event = event.model_copy(update={"event_time": from_us(newest_us)})
            self.letters.append(event)
            return None
        return event


Line = tuple[int, str, str, int, Event]
"""(event time µs, schema, event id, line number, event): the line number is unique, so two
lines never compare their events."""


class _Held:
    """The lines of one file not yet released, popped in (time, schema, id, line) order.

    A recording is nearly in order: lines that come after every line held so far wait in a
    FIFO (O(1)), only the others in a heap (O(log n)); the oldest line is the older of the
    two heads. Same order as one heap, without a heap operation per line of a long window.
    """

    def __init__(self) -> None:
        self.in_order: deque[Line] = deque()
        self.stray: list[Line] = []

    def push(self, line: Line) -> None:
        if self.in_order and line < self.in_order[-1]:
            heapq.heappush(self.stray, line)
        else:
            self.in_order.append(line)

    def pop_through(self, limit_us: int | None) -> list[Line]:
        """Remove and return, oldest first, every line at or before ``limit_us`` (None: all)."""
        out: list[Line] = []
        in_order, stray = self.in_order, self.stray
        while True:
            if stray and (not in_order or stray[0] < in_order[0]):
                if limit_us is not None and stray[0][0] > limit_us:
                    break
                out.append(heapq.heappop(stray))
            elif in_order and (limit_us is None or in_order[0][0] <= limit_us):
                out.append(in_order.popleft())
            else:
                return out
        return out


def replay(source: Path | Sequence[Path], output: IO[bytes], settings: DetectionSettings | None = None,
           progress: Progress | None = None, window_s: float = DEFAULT_WINDOW_S) -> ReplayResult:
    """Replay ``source`` (one file or several) into ``output``; see the module docstring."""
    with _young_collections_every(YOUNG_GC_OBJECTS):
        return _replay(source, output, settings, progress, window_s)


@contextmanager
def _young_collections_every(objects: int) -> Iterator[None]:
    """Run the cyclic garbage collector's young generation every ``objects`` allocations
    (at least) inside the block, and restore the process's thresholds after it.

    A replay allocates a few objects per event and keeps minutes of events alive (the reorder
    windows); at Python's default (700) the collector runs every hundred events or so and
    re-walks what survived, for about a tenth of the replay's time. Its garbage is freed by
    reference counting anyway (the pipeline makes few cycles), so collecting less often only
    delays the rare cycle's release."""
    before = gc.get_threshold()
    gc.set_threshold(max(objects, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _replay(source: Path | Sequence[Path], output: IO[bytes], settings: DetectionSettings | None,
            progress: Progress | None, window_s: float) -> ReplayResult:
    paths = [source] if isinstance(source, Path) else list(source)
    result = ReplayResult()
    letters: list[DeadLetter] = []
    readers = [_Reader(p, timedelta(seconds=window_s), letters, result, i) for i, p in enumerate(paths)]
    # one input needs no merge (a generator layer less per event)
    merged = readers[0].events() if len(readers) == 1 else heapq.merge(*(r.events() for r in readers))
    runner = LocalRunner(topology.build(settings or DetectionSettings()))
    last: Event | None = None
    for count, (_, _, _, _, event) in enumerate(merged, start=1):
        if letters:
            _write(output, letters, result)
        derived = runner.feed(event)
        if derived:
            _write_derived(output, derived, result)
        last = event
        if progress is not None and count % 20_000 == 0:
            progress(result.events, sum(r.bytes_read for r in readers))
    _write(output, letters, result)
    if last is not None:
        _write_derived(output, runner.flush(last.event_time), result)
    if progress is not None:
        progress(result.events, sum(r.bytes_read for r in readers))
    return result


def _write(output: IO[bytes], letters: list[DeadLetter], result: ReplayResult) -> None:
    for letter in letters:
        output.write(encode(letter) + b"\n")
    result.dead_letters += len(letters)
    letters.clear()


def _write_derived(output: IO[bytes], events: Iterable[Event], result: ReplayResult) -> None:
    for event in events:
        output.write(encode(event) + b"\n")
        result.derived += 1


class TerminalProgress:
    """A progress bar (rich) with events/s on a terminal, a line every 10 s otherwise."""

    def __init__(self, total_bytes: int, stream: IO[str] = sys.stderr) -> None:
        self.total_bytes = total_bytes
        self.stream = stream
        self.started = self.said = time.monotonic()
        self.bar = None
        if stream.isatty():
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(TextColumn("replay"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                                TextColumn("{task.fields[rate]}"), TimeRemainingColumn(), transient=True)
            self.task = self.bar.add_task("replay", total=total_bytes or None, rate="")
            self.bar.start()

    def __call__(self, events: int, bytes_read: int) -> None:
        now = time.monotonic()
        rate = f"{events / max(now - self.started, 1e-9):,.0f} events/s"
        if self.bar is not None:
            self.bar.update(self.task, completed=bytes_read, rate=rate)
        elif now - self.said >= 10:
            self.said = now
            share = f"{100 * bytes_read / self.total_bytes:.0f}%" if self.total_bytes else "?"
            print(f"replay: {events:,} events ({share} of the input), {rate}", file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
