"""Where the agent's events go: JSON lines (``--output FILE|-``) or Kafka through the spool.

:class:`KafkaOutput` appends every event to the :class:`~producers.agent.spool.Spool` and a
sender thread moves them to Kafka in spool order through the idempotent
:class:`~producers.kafka.EventProducer`. At most ``send_batch`` records are in librdkafka's
hands at once; the rest wait on disk. A record is acknowledged in the spool only when
Kafka confirmed it and every record before it.

Order: ``message.timeout.ms`` is infinite by default, so during an outage librdkafka keeps
retrying the in-flight records itself and the idempotent producer keeps them in order. A
finite timeout (``message_timeout_ms``) is allowed but can reorder records around the moment
the broker returns (an expired record is resent after a younger one that did not expire).
After a failed delivery nothing new is produced until everything in flight has been
reported; then the failed records are produced again, in sequence order, before any newer
one. A fatal producer error (e.g. the idempotence state was lost) replaces the producer and
resends everything unconfirmed (at-least-once). Records Kafka can never take (too large,
invalid) are counted in ``faultline_agent_delivery_errors`` and
``faultline_agent_spool_dropped``, logged and skipped, so they cannot block the queue.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import IO, Any, Protocol

from confluent_kafka import KafkaError, KafkaException, Message

from producers.agent.metrics import AgentMetrics
from producers.agent.spool import Record, Spool
from producers.kafka import EventProducer
from schemas import Event, encode, topic_for
from schemas.settings import KafkaSettings

log = logging.getLogger(__name__)

PERMANENT = frozenset({KafkaError.MSG_SIZE_TOO_LARGE, KafkaError.INVALID_MSG, KafkaError.INVALID_RECORD,
                       KafkaError.INVALID_MSG_SIZE})
"""Delivery errors that resending cannot fix."""


class Output(Protocol):
    def emit(self, events: Sequence[Event]) -> None:
        """Take the events of one round (raising means they were not taken)."""
        ...

    def close(self) -> None:
        ...


class JsonLinesOutput:
    """One v1 event per line on a binary stream (a file, stdout or /dev/null)."""

    def __init__(self, stream: IO[bytes], metrics: AgentMetrics, owned: bool = True) -> None:
        self.stream = stream
        self.metrics = metrics
        self.owned = owned

    def emit(self, events: Sequence[Event]) -> None:
        if not events:
            return
        self.stream.write(b"".join(encode(e) + b"\n" for e in events))
        self.stream.flush()
        for event in events:
            self.metrics.events.labels(event.schema_name()).inc()
        self.metrics.sent.inc(len(events))

    def close(self) -> None:
        if self.owned:
            self.stream.close()


class _TrackingProducer(EventProducer):
    """The project's producer, also telling the sender which spool record each report is for.

    Values are unique (each carries its event id), so a delivery report is matched to its
    record by topic and value.
    """

    def __init__(self, kafka: KafkaSettings, sender: KafkaOutput, **overrides: Any) -> None:
        super().__init__(kafka, **overrides)
        self.sender = sender

    def _on_delivery(self, err: KafkaError | None, msg: Message) -> None:
        if err is None:
            super()._on_delivery(err, msg)
        else:
            # Not the base class's one log line per message: an outage fails thousands, and every
            # one is resent from the spool. Counted, and logged once per distinct error.
            self.stats.failed += 1
            if str(err) not in self.stats.errors:
                self.stats.errors.append(str(err))
                log.warning("delivery to %s failed (resent from the spool): %s", msg.topic(), err)
        self.sender.on_report(msg.topic() or "", msg.value() or b"", err)


class KafkaOutput:
    """Spool-backed, in-order, at-least-once delivery to the registry topics."""

    def __init__(self, kafka: KafkaSettings, spool: Spool, metrics: AgentMetrics, *, send_batch: int = 5000,
                 message_timeout_ms: int = 0) -> None:
        self.kafka = kafka
        self.spool = spool
        self.metrics = metrics
        self.send_batch = send_batch
        self.message_timeout_ms = message_timeout_ms
        self.producer = self._new_producer()
        self._fatal = False
        self._inflight: dict[tuple[str, bytes], Record] = {}
        self._delivered: set[int] = set()
        self._retry: list[Record] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kafka-sender", daemon=True)
        self._thread.start()

    def emit(self, events: Sequence[Event]) -> None:
        """Append to the spool (durable per its fsync policy); the sender thread does the rest."""
        records = []
        for event in events:
            spec = topic_for(event)
            records.append((self.kafka.topic(spec.name), spec.key_of(event), encode(event)))
            self.metrics.events.labels(event.schema_name()).inc()
        self.spool.append(records)

    # -- the sender thread (delivery reports are served on it, by poll) ----------------
    def _run(self) -> None:
        while not self._stop.is_set():
            self._pump(0.2)

    def _new_producer(self) -> _TrackingProducer:
        return _TrackingProducer(self.kafka, self, **{"message.timeout.ms": self.message_timeout_ms,
                                                      "reconnect.backoff.max.ms": 2000})

    def _renew_producer(self) -> None:
        """After a fatal error: a fresh producer, and every unconfirmed record resent by it."""
        log.warning("kafka producer hit a fatal error; replacing it and resending %d records", len(self._inflight))
        self._retry.extend(self._inflight.values())
        self._inflight.clear()
        self.producer = self._new_producer()
        self._fatal = False

    def _pump(self, wait_s: float) -> None:
        try:
            if self._fatal:
                self._renew_producer()
            self._produce_some()
            self.producer.flush_pending(wait_s)
            self._advance()
            self.spool.sync_if_due()
        except Exception as exc:  # noqa: BLE001 - the sender thread must outlive any error; counted, retried
            self.metrics.delivery_errors.inc()
            if isinstance(exc, KafkaException) and exc.args and isinstance(exc.args[0], KafkaError):
                self._fatal = self._fatal or exc.args[0].fatal()
            log.warning("kafka sender: %s", exc)
            self._stop.wait(1.0)

    def _produce_some(self) -> None:
        if self._retry:
            if self._inflight:
                return  # wait for every report before resending, so order survives the failure
            batch, self._retry = sorted(self._retry, key=lambda r: r.seq), []
        else:
            batch = self.spool.read(self.send_batch - len(self._inflight)) if len(self._inflight) < self.send_batch else []
        for record in batch:
            self._inflight[(record.topic, record.value)] = record
            self.producer.send_raw(record.topic, record.value, record.key)

    def on_report(self, topic: str, value: bytes, err: KafkaError | None) -> None:
        record = self._inflight.pop((topic, value), None)
        if record is None:
            return
        if err is None:
            self._delivered.add(record.seq)
            self.metrics.sent.inc()
            return
        self.metrics.delivery_errors.inc()
        if err.code() in PERMANENT:
            log.error("kafka rejected spool record %d for good (%s); skipped", record.seq, err)
            self.metrics.spool_dropped.inc()
            self._delivered.add(record.seq)  # acknowledged as handled, so it cannot block the queue
            return
        self._fatal = self._fatal or err.fatal()
        self._retry.append(record)

    def _advance(self) -> None:
        acked = self.spool.acked
        while acked + 1 in self._delivered:
            acked += 1
            self._delivered.discard(acked)
        self._delivered = {s for s in self._delivered if s > acked}
        self.spool.ack(acked)

    def drain(self, timeout_s: float) -> bool:
        """Wait until the spool is empty (True) or ``timeout_s`` passed (False)."""
        deadline = time.monotonic() + timeout_s
        while self.spool.depth() > 0 and time.monotonic() < deadline and self._thread.is_alive():
            self._stop.wait(0.05)
        return self.spool.depth() == 0

    def close(self, drain_s: float = 10.0) -> None:
        """Send what can be sent within ``drain_s``; the rest stays in the spool for the next start."""
        self.drain(drain_s)
        self._stop.set()
        self._thread.join(timeout=5)
        self.spool.close()
        # Unsent in-flight records stay in the spool; dropping the client closes its connections.
        self.producer = None  # type: ignore[assignment]  # closed: no use after close()
