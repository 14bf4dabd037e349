"""Where hook and scheduler events go: Kafka through ``EventProducer``, or JSON lines.

A sink is called from one thread only (the reporter's sender thread, or a scheduler
watcher's loop); it may block and may raise: its callers count the failures.
"""

from __future__ import annotations

import sys
from typing import IO, Protocol

from producers.kafka import EventProducer
from schemas import Event, encode
from schemas.settings import KafkaSettings


class Sink(Protocol):
    """A destination of events."""

    def send(self, event: Event) -> None:
        """Deliver (or queue for delivery) one event; raises on failure."""

    def poll(self) -> None:
        """Let the sink serve background work (delivery reports) while idle."""

    def close(self) -> None:
        """Flush and release; raises if queued events could not be delivered."""


class KafkaSink:
    """Events to their registry topics through the project's idempotent producer.

    ``close`` waits at most ``flush_timeout_s`` for delivery (a training process must be able
    to exit when the broker is gone) and raises DeliveryError for what was not delivered.
    """

    def __init__(self, kafka: KafkaSettings, flush_timeout_s: float = 30.0) -> None:
        self.producer = EventProducer(kafka)
        self.flush_timeout_s = flush_timeout_s

    def send(self, event: Event) -> None:
        self.producer.send(event)

    def poll(self) -> None:
        self.producer.flush_pending(0)

    def close(self) -> None:
        self.producer.flush(self.flush_timeout_s)

    @property
    def failed(self) -> int:
        """Messages librdkafka reported as undeliverable."""
        return self.producer.stats.failed


class JsonLinesSink:
    """One ``schemas.encode``-d event per line, flushed per event (``-``: standard output).

    The file is opened for appending and each event is one write of a whole line, so the
    ranks of a job (one process each) can share a file and a re-run never truncates it.
    """

    def __init__(self, path: str) -> None:
        self._own = path != "-"
        self._out: IO[bytes] = open(path, "ab") if self._own else sys.stdout.buffer  # closed in close()

    def send(self, event: Event) -> None:
        self._out.write(encode(event) + b"\n")
        self._out.flush()

    def poll(self) -> None:
        """Nothing runs in the background of a file."""

    def close(self) -> None:
        if self._own:
            self._out.close()
        else:
            self._out.flush()


class ListSink:
    """Events kept in memory (for callers that inspect what would have been sent)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def send(self, event: Event) -> None:
        self.events.append(event)

    def poll(self) -> None:
        """Nothing to serve."""

    def close(self) -> None:
        """Nothing to release."""


def open_sink(output: str | None, kafka: KafkaSettings | None, flush_timeout_s: float = 30.0) -> Sink:
    """A JSON-lines sink when ``output`` is a path or ``-``, else Kafka with ``kafka``."""
    if output:
        return JsonLinesSink(output)
    if kafka is None:
        raise ValueError("either an output file or Kafka settings are needed")
    return KafkaSink(kafka, flush_timeout_s)
