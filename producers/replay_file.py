"""Publish a JSON-lines file of v1 events to their registry topics, in file order."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from producers.kafka import EventProducer
from schemas import DeadLetter, decode
from schemas.settings import KafkaSettings

log = logging.getLogger(__name__)


def produce_file(path: Path, kafka: KafkaSettings, progress_every: int = 100_000) -> int:
    """Send every valid event of ``path``; returns how many were sent.

    Lines that are not valid v1 events have no topic to go to: they are reported on
    stderr with their line number and not sent.
    """
    sent = 0
    with EventProducer(kafka) as producer, open(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            event = decode(line.rstrip(b"\r\n"), source_topic=str(path), offset=number)
            if isinstance(event, DeadLetter):
                print(f"{path}:{number}: skipped: {event.error}", file=sys.stderr)
                continue
            producer.send(event)
            sent += 1
            if sent % progress_every == 0:
                print(f"produce: {sent} events", file=sys.stderr, flush=True)
    return sent
