"""Publish a JSON-lines file of v1 events to their registry topics, in file order."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from producers.kafka import EventProducer, send_paced
from schemas import DeadLetter, Event, decode
from schemas.settings import KafkaSettings


def read_valid(path: Path, progress_every: int = 100_000) -> Iterator[Event]:
    """The valid events of ``path``; invalid lines are reported on stderr and skipped
    (with no schema they have no topic to go to)."""
    count = 0
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            event = decode(line.rstrip(b"\r\n"), source_topic=str(path), offset=number)
            if isinstance(event, DeadLetter):
                print(f"{path}:{number}: skipped: {event.error}", file=sys.stderr)
                continue
            count += 1
            if count % progress_every == 0:
                print(f"produce: {count} events", file=sys.stderr, flush=True)
            yield event


def produce_file(path: Path, kafka: KafkaSettings, speed: float | None = None) -> int:
    """Send every valid event of ``path``, at ``speed`` x its event-time pace (None: as fast
    as possible); returns how many were sent."""
    with EventProducer(kafka) as producer:
        return send_paced(producer, read_valid(path), speed)
