"""``faultline replay``: the pure detection chain over a JSON-lines file of v1 events.

Input lines are decoded (a bad line becomes a ``dead_letter`` event with stage ``decode``
or ``validate``, its line number as offset), sorted into event-time order, fed through the
stages the Faust worker runs (``streams.topology``, in a ``LocalRunner``), and every derived event is
written as one JSON line. The output is a pure function of the input file and the
detection settings: two runs give the same bytes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from schemas import DeadLetter, Event, decode, encode
from streams import topology
from streams.core.reorder import order_key
from streams.core.topology import LocalRunner
from streams.settings import DetectionSettings

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass
class ReplayResult:
    """What a replay read and wrote."""

    events: int = 0
    dead_letters: int = 0
    derived: int = 0


def read_events(lines: Iterable[bytes | str], source: str) -> tuple[list[Event], list[DeadLetter]]:
    """Decode JSON lines; blank lines are skipped, bad ones become dead letters."""
    good: list[Event] = []
    bad: list[DeadLetter] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        event = decode(line.rstrip(b"\r\n") if isinstance(line, bytes) else line.rstrip("\r\n"),
                       source_topic=source, offset=number)
        (bad if isinstance(event, DeadLetter) else good).append(event)  # type: ignore[arg-type]
    good.sort(key=order_key)
    first = good[0].event_time if good else EPOCH
    # A dead letter's time is the input's first event time, so replays are byte-identical.
    return good, [d.model_copy(update={"event_time": first}) for d in bad]


def run_chain(events: list[Event], settings: DetectionSettings,
              progress: Callable[[int, int], None] | None = None) -> Iterator[Event]:
    """Every derived event the chain produces for ``events`` (already in event-time order)."""
    runner = LocalRunner(topology.build(settings))
    for index, event in enumerate(events, start=1):
        yield from runner.feed(event)
        if progress is not None and index % 100_000 == 0:
            progress(index, len(events))
    if events:
        yield from runner.flush(events[-1].event_time)


def replay(source: Path, output: IO[bytes], settings: DetectionSettings | None = None,
           progress: Callable[[int, int], None] | None = None) -> ReplayResult:
    """Replay ``source`` into ``output``; see the module docstring for the contract."""
    with open(source, "rb") as handle:
        events, letters = read_events(handle, str(source))
    result = ReplayResult(events=len(events), dead_letters=len(letters))
    for letter in letters:
        output.write(encode(letter) + b"\n")
    for derived in run_chain(events, settings or DetectionSettings(), progress):
        output.write(encode(derived) + b"\n")
        result.derived += 1
    return result


def stderr_progress(done: int, total: int) -> None:
    """Progress line for long replays."""
    print(f"replay: {done}/{total} events ({100 * done // max(total, 1)}%)", file=sys.stderr, flush=True)
