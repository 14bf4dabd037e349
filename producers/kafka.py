"""The one way events reach Kafka: an idempotent, keyed, compressed confluent-kafka producer.

Topic and key come from the registry (``schemas.registry.topic_for``), so a caller only says
*what* happened. ``send`` never drops: when librdkafka's local queue is full it polls for
delivery reports until there is room (back-pressure) instead of failing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from confluent_kafka import KafkaError, Message, Producer

from schemas import Event, encode, topic_for
from schemas.registry import BY_NAME
from schemas.settings import KafkaSettings

log = logging.getLogger(__name__)


class DeliveryError(RuntimeError):
    """Some messages could not be delivered (after librdkafka's own retries)."""


@dataclass
class ProducerStats:
    """Counters a producer reports: queued, delivered and failed messages."""

    queued: int = 0
    delivered: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


class EventProducer:
    """An idempotent producer of v1 events (``enable.idempotence``, ``acks=all``).

    Use as a context manager: leaving it flushes every queued message and raises
    DeliveryError if any could not be delivered.
    """

    def __init__(self, kafka: KafkaSettings, **overrides: Any) -> None:
        self.kafka = kafka
        self.stats = ProducerStats()
        conf = kafka.confluent(**{
            "enable.idempotence": True,
            "acks": "all",
            "compression.type": "lz4",
            # Java-compatible key hashing, so Faust (aiokafka, murmur2) and this producer put
            # the same key in the same partition and co-partitioned joins stay local.
            "partitioner": "murmur2_random",
            "linger.ms": 20,
            "batch.num.messages": 10000,
            "queue.buffering.max.messages": 200000,
            **overrides,
        })
        self._producer = Producer(conf)

    def _on_delivery(self, err: KafkaError | None, msg: Message) -> None:
        if err is None:
            self.stats.delivered += 1
            return
        self.stats.failed += 1
        if len(self.stats.errors) < 20:
            self.stats.errors.append(f"{msg.topic()}: {err}")
        log.error("delivery to %s failed: %s", msg.topic(), err)

    def send(self, event: Event, topic: str | None = None, key: str | None = None) -> None:
        """Queue ``event`` on its registry topic (or logical ``topic``) with the registry key."""
        spec = topic_for(event) if topic is None else BY_NAME[topic]
        self.send_raw(self.kafka.topic(spec.name), encode(event), key if key is not None else spec.key_of(event))

    def send_raw(self, physical_topic: str, value: bytes, key: str | None) -> None:
        """Queue raw bytes on a physical topic, waiting for room when the local queue is full."""
        while True:
            try:
                self._producer.produce(physical_topic, value=value, key=key, on_delivery=self._on_delivery)
                break
            except BufferError:
                self._producer.poll(0.1)
        self.stats.queued += 1
        self._producer.poll(0)

    def send_all(self, events: Iterable[Event]) -> int:
        """Queue every event; returns how many were queued."""
        count = 0
        for event in events:
            self.send(event)
            count += 1
        return count

    def flush_pending(self, seconds: float) -> None:
        """Serve delivery reports for up to ``seconds`` (a pause that keeps the queue moving)."""
        self._producer.poll(seconds)

    def flush(self, timeout_s: float = 60.0) -> None:
        """Wait for every queued message; raise DeliveryError if any is undelivered or failed."""
        remaining = self._producer.flush(timeout_s)
        if remaining or self.stats.failed:
            raise DeliveryError(f"{remaining} undelivered, {self.stats.failed} failed: {self.stats.errors[:3]}")

    def close(self) -> None:
        """Flush, then release the client (its background threads and connections)."""
        try:
            self.flush()
        finally:
            self._producer = None  # type: ignore[assignment]  # dropping the last reference closes librdkafka

    def __enter__(self) -> EventProducer:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()



def send_paced(producer: EventProducer, events: Iterable[Event], speed: float | None) -> int:
    """Send events in order, at ``speed`` times their event-time pace (None: as fast as possible).

    A fleet emits telemetry in real time; replaying a recording much faster than that
    compresses event time so that the pipeline's allowed lateness (seconds of event time)
    shrinks to microseconds of wall time. Pacing keeps a replay representative.
    """
    import time

    sent = 0
    start_wall = time.monotonic()
    start_event = None
    for event in events:
        if speed:
            start_event = start_event or event.event_time
            due = (event.event_time - start_event).total_seconds() / speed
            ahead = due - (time.monotonic() - start_wall)
            if ahead > 0:
                producer.flush_pending(ahead)
        producer.send(event)
        sent += 1
    return sent
