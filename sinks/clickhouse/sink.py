"""The ClickHouse sink: derived topics -> batches -> ClickHouse, offsets committed after the flush.

Decoding (:func:`decode_value`): each value is decoded by msgspec into the mirror of its
model (``schemas.mirror``: the same fields and values, several times cheaper than pydantic;
what one ``consume`` call returns is decoded together, ``FastDecoder.decode_many``);
anything the mirror is not sure of (bad input, other kinds, offsets other than ``Z``, ...)
is decoded by ``schemas.decode`` as before, so dead letters keep their exact reasons. The
mapping builds a table's columns from mirrors and events alike.

Order of side effects per flush (STYLE.md rule 10): insert the batch (retrying transient
errors with backoff, bisecting permanent failures down to the bad events), publish dead
letters to the ``deadletter`` topic and wait for the producer, store them in
``dead_letters``, and only then commit the consumed offsets. A crash anywhere before the
commit re-delivers the batch; the tables deduplicate on the derived id, so the result is
effectively-once.
"""

from __future__ import annotations

import gc
import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TypeVar

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition

from schemas import DeadLetter, Event, dead_letter, decode, encode
from schemas.mirror import FastDecoder, Mirror
from schemas.registry import DERIVED_TOPICS
from schemas.settings import KafkaSettings
from sinks.clickhouse.batch import Batch, Consumed
from sinks.clickhouse.errors import PermanentError, RetryableError, SinkError
from sinks.clickhouse.mapping import BY_MODEL
from sinks.clickhouse.server import QueryServer
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import Store, connect

log = logging.getLogger(__name__)
T = TypeVar("T")
FIRST_ASSIGNMENT_WAIT_S = 30.0
CONSUME_MAX_MESSAGES = 5_000
"""Messages per ``consume`` call: large enough to amortise the call, small enough that one call
overshoots ``batch_max_bytes`` by little."""
FETCH_PARTITION_BYTES = 8 * 1024 * 1024
GC_THRESHOLDS = (50_000, 20, 100)
FAST = FastDecoder(BY_MODEL)
"""Decodes the kinds with a table straight into their msgspec mirrors; whatever it does not
accept (bad input, other kinds, offsets other than ``Z``, ...) takes ``schemas.decode``."""


def tune_gc_for_batches() -> None:
    """Process-wide: run CPython's cyclic garbage collector less often (:data:`GC_THRESHOLDS`).

    A batch keeps tens of thousands of decoded events alive, and with the default thresholds
    (700, 10, 10) the collector walks them again every few hundred allocations: about a third
    of the sink's CPU per row (tests/bench/sink_bench.py). Events hold no reference cycles, so
    reference counting frees them either way; only rare cyclic garbage waits a little longer.
    For entry points that run a sink (``faultline sink`` does); library code never calls it.
    """
    gc.set_threshold(*GC_THRESHOLDS)


class SinkStopped(SinkError):
    """Raised inside the sink when a stop was requested while an operation was being retried."""


@dataclass
class SinkCounters:
    """What the sink did since it started; every count is cumulative, zero means none yet.

    The ``*_s`` fields are where the time went (wall seconds, cumulative): ``poll_s`` waiting
    in and returning from ``consume``, ``decode_s`` decoding and batching what it returned,
    ``insert_s`` building columns and inserting (retries and dead letters included),
    ``commit_s`` committing offsets.
    """

    consumed: int = 0
    inserted: int = 0
    dead_lettered: int = 0
    retries: int = 0
    flushes: int = 0
    commits: int = 0
    commit_failures: int = 0
    poll_s: float = 0.0
    decode_s: float = 0.0
    insert_s: float = 0.0
    commit_s: float = 0.0

    def snapshot(self) -> SinkCounters:
        """A copy that later updates do not change."""
        return replace(self)


Progress = Callable[[SinkCounters], None]


class ClickHouseSink:
    """Consumes derived topics into ClickHouse; ``counters`` is live while ``run`` runs.

    Several sinks in the same ``group_id`` share the partitions (a chDB path, though, is
    owned by one process; use a server DSN to scale out).
    """

    def __init__(
        self,
        kafka: KafkaSettings,
        ch: ClickHouseSettings,
        group_id: str,
        topics: Sequence[str] = DERIVED_TOPICS,
        session_timeout_ms: int = 10_000,
        instance_id: str | None = None,
    ) -> None:
        """``session_timeout_ms``: how soon the group notices a crashed sink and hands its
        partitions on (librdkafka's default, 45 s, is how long a restarted sink would wait).
        ``instance_id``: static group membership (``group.instance.id``): a sink restarted with
        the same id gets its partitions back at once, without a rebalance."""
        if not group_id:
            raise ValueError("group_id must be a non-empty consumer group name")
        self.kafka = kafka
        self.ch = ch
        self.group_id = group_id
        self.topics = tuple(topics)
        self.session_timeout_ms = session_timeout_ms
        self.instance_id = instance_id
        self.counters = SinkCounters()
        self._batch = Batch()
        self._stop = threading.Event()
        self._assigned_at: float | None = None
        self._last_message = time.monotonic()
        self._abandoned = False

    def run(
        self,
        stop: threading.Event | None = None,
        idle_exit_s: float | None = None,
        progress: Progress | None = None,
    ) -> SinkCounters:
        """Consume until ``stop`` is set or nothing arrived for ``idle_exit_s``; returns the counters.

        On a normal exit the pending batch is flushed and committed first. When ``stop`` is set
        while a transient error is being retried, the batch is abandoned uncommitted (it will
        be re-read). Raises only on unrecoverable Kafka errors or a permanent setup failure.
        """
        self._stop = stop or threading.Event()
        self._last_message, self._assigned_at, self._abandoned = time.monotonic(), None, False
        try:
            self._run(idle_exit_s, progress)
        except SinkStopped as exc:
            log.warning("sink stopped with %d messages uncommitted: %s", len(self._batch), exc)
        return self.counters.snapshot()

    def _run(self, idle_exit_s: float | None, progress: Progress | None) -> None:
        store = self._retry(lambda: connect(self.ch))
        try:
            self._retry(store.migrate)
            with self._query_server():
                self._consume(store, idle_exit_s, progress)
        finally:
            store.close()

    def _query_server(self) -> QueryServer:
        enabled = self.ch.embedded and self.ch.query_server
        return QueryServer(self.ch, enabled=enabled)

    def _consume(self, store: Store, idle_exit_s: float | None, progress: Progress | None) -> None:
        consumer = Consumer(self._consumer_conf())
        producer = Producer(self.kafka.confluent(**{"enable.idempotence": True}))
        flush = lambda: self._flush(store, consumer, producer, progress)  # noqa: E731
        consumer.subscribe(
            [self.kafka.topic(t) for t in self.topics],
            on_assign=self._on_assign,
            on_revoke=lambda c, parts: None if self._abandoned else flush(),
        )
        try:
            self._loop(consumer, flush, idle_exit_s)
        except SinkStopped:
            self._abandoned = True  # closing must not flush (and retry) again
            raise
        finally:
            consumer.close()
            producer.flush(5.0)

    def _consumer_conf(self) -> dict[str, object]:
        return self.kafka.confluent(**{
            "group.id": self.group_id,
            "enable.auto.commit": False,
            "enable.auto.offset.store": False,
            "auto.offset.reset": "earliest",
            "session.timeout.ms": self.session_timeout_ms,
            # Fetch big chunks so the prefetch queue stays ahead of the decoding (default: 1 MiB).
            "max.partition.fetch.bytes": FETCH_PARTITION_BYTES,
            **({"group.instance.id": self.instance_id} if self.instance_id else {}),
        })

    def _on_assign(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        self._assigned_at = time.monotonic()

    def _loop(self, consumer: Consumer, flush: Callable[[], None], idle_exit_s: float | None) -> None:
        ch = self.ch
        while not self._stop.is_set():
            room = min(CONSUME_MAX_MESSAGES, max(1, ch.batch_size - len(self._batch)))
            started = time.perf_counter()
            messages = consumer.consume(num_messages=room, timeout=ch.poll_timeout_s)
            polled = time.perf_counter()
            self._accept_all(messages)
            self.counters.poll_s += polled - started
            self.counters.decode_s += time.perf_counter() - polled
            if self._batch.due(ch.batch_size, ch.flush_interval_s, max_bytes=ch.batch_max_bytes):
                flush()
            if idle_exit_s is not None and self._idle(idle_exit_s):
                break
        flush()

    def _idle(self, idle_exit_s: float) -> bool:
        """True when nothing arrived for ``idle_exit_s`` since assignment (or since start, if never assigned)."""
        now = time.monotonic()
        if len(self._batch):
            return False
        if self._assigned_at is None:
            return now - self._last_message >= max(idle_exit_s, FIRST_ASSIGNMENT_WAIT_S)
        return now - max(self._assigned_at, self._last_message) >= idle_exit_s

    def _accept_all(self, messages: list[Message]) -> None:
        """Decode ``messages`` into the batch; Kafka errors are raised (fatal) or logged and skipped."""
        good: list[Message] = []
        append = good.append
        for msg in messages:
            error = msg.error()
            if error is None:
                append(msg)
            elif error.fatal():
                raise KafkaException(error)
            elif error.code() != KafkaError._PARTITION_EOF:
                log.warning("consumer error: %s", error)
        values = [msg.value() or b"" for msg in good]
        items = list(map(_consumed, good, values, FAST.decode_many(values)))
        if items:
            self._batch.add_all(items)
            self._last_message = time.monotonic()
            self.counters.consumed += len(items)

    def _flush(self, store: Store, consumer: Consumer, producer: Producer, progress: Progress | None) -> None:
        """Land the batch, then its dead letters, then commit; a no-op for an empty batch."""
        if not len(self._batch):
            return
        started = time.perf_counter()
        bad = self._write(store, self._batch.events())
        dead = self._batch.failures() + [_sink_dead_letter(item, error) for item, error in bad]
        if dead:
            self._publish(producer, dead)
            self._store_dead(store, dead)
        landed = time.perf_counter()
        self._commit(consumer, self._batch.next_offsets)
        self.counters.insert_s += landed - started
        self.counters.commit_s += time.perf_counter() - landed
        self.counters.flushes += 1
        self._batch.clear()
        if progress is not None:
            progress(self.counters.snapshot())

    def _write(self, store: Store, items: list[Consumed]) -> list[tuple[Consumed, str]]:
        """Insert ``items``; returns the ones ClickHouse rejects for good, with the reason.

        Transient errors are retried without limit; a permanent failure splits the batch in
        two and retries each half, so only the bad events are left out.
        """
        if not items:
            return []
        try:
            self.counters.inserted += self._retry(lambda: store.insert([i.event for i in items]))
            return []
        except PermanentError as exc:
            if len(items) == 1:
                return [(items[0], str(exc))]
        mid = len(items) // 2
        return self._write(store, items[:mid]) + self._write(store, items[mid:])

    def _publish(self, producer: Producer, dead: list[DeadLetter]) -> None:
        """Produce ``dead`` to the deadletter topic and wait until the broker has them all."""
        topic = self.kafka.topic("deadletter")
        todo = list(dead)
        while todo:
            failed: list[DeadLetter] = []
            for letter in todo:
                _produce(producer, topic, letter, _delivery_callback(letter, failed))
            producer.flush(30.0)
            if failed:
                self._backoff(RetryableError(f"{len(failed)} dead letters not delivered"), 0)
            todo = failed
        self.counters.dead_lettered += len(dead)

    def _store_dead(self, store: Store, dead: list[DeadLetter]) -> None:
        try:
            self._retry(lambda: store.insert(dead))
        except PermanentError as exc:  # they are safe on the deadletter topic already
            log.error("dead letters not stored in ClickHouse (kept on the topic): %s", exc)

    def _commit(self, consumer: Consumer, offsets: dict[tuple[str, int], int]) -> None:
        parts = [TopicPartition(topic, part, off) for (topic, part), off in offsets.items()]
        try:
            consumer.commit(offsets=parts, asynchronous=False)
            self.counters.commits += 1
        except KafkaException as exc:  # lost partitions: the batch is re-read and deduplicated
            self.counters.commit_failures += 1
            log.warning("offset commit failed, batch will be re-delivered: %s", exc)

    def _retry(self, op: Callable[[], T]) -> T:
        """Run ``op`` until it does not raise RetryableError; SinkStopped if stopped meanwhile."""
        attempt = 0
        while True:
            try:
                return op()
            except RetryableError as exc:
                self._backoff(exc, attempt)
                attempt += 1

    def _backoff(self, exc: Exception, attempt: int) -> None:
        policy = self.ch.retry
        delay = policy.delay(attempt) * (1 + policy.jitter * random.uniform(-1, 1))
        self.counters.retries += 1
        log.warning("transient error (retry %d in %.2fs): %s", attempt + 1, delay, exc)
        if self._stop.wait(delay):
            raise SinkStopped(f"stop requested while retrying: {exc}") from exc


def _consumed(msg: Message, raw: bytes, fast: Mirror | None) -> Consumed:
    """The message, its value ``raw`` and what it decoded to; ``fast`` is ``FAST``'s mirror of
    ``raw`` or None (then ``decode_value`` decides). Per message: kept lean."""
    raw_key = msg.key()
    key = raw_key.decode("utf-8", "replace") if isinstance(raw_key, bytes) else raw_key
    topic, part, off = msg.topic() or "", msg.partition() or 0, msg.offset() or 0
    if fast is not None:  # ``_make``: a tenth of the cost of calling the NamedTuple
        return Consumed._make((topic, part, off, key, raw, fast, False))
    return Consumed._make((topic, part, off, key, raw, *decode_value(raw, topic, part, off, key)))


def decode_value(raw: bytes, topic: str = "", partition: int = -1, offset: int = -1,
                 key: str | None = None) -> tuple[Event | Mirror, bool]:
    """What the sink makes of one message value: ``(row source, failed)``.

    The row source is the msgspec mirror of a derived event (:data:`FAST`), else what
    ``schemas.decode`` gives; ``failed`` is True when that is a dead letter made here (bad
    input, or a kind with no table), which the sink publishes instead of inserting. The
    position arguments only describe the message for its dead letter.
    """
    fast = FAST.decode(raw)
    if fast is not None:
        return fast, False
    result = decode(raw, source_topic=topic, partition=partition, offset=offset, key=key)
    failed = isinstance(result, DeadLetter) and _made_by_decode(result, topic, partition, offset)
    if not failed and type(result) not in BY_MODEL:
        error = f"{result.schema_name()} is not a derived event kind with a table"
        result = dead_letter(raw, source_topic=topic, stage="validate", error=error,
                             partition=partition, offset=offset, key=key, cluster=result.cluster)
        failed = True
    return result, failed


def _made_by_decode(letter: DeadLetter, topic: str, partition: int, offset: int) -> bool:
    same_place = (letter.source_topic, letter.partition, letter.offset) == (topic, partition, offset)
    return same_place and letter.stage in ("decode", "validate")


def _sink_dead_letter(item: Consumed, error: str) -> DeadLetter:
    return dead_letter(
        item.value, source_topic=item.topic, stage="sink", error=error, partition=item.partition,
        offset=item.offset, key=item.key, cluster=item.event.cluster, event_time=datetime.now(UTC),
    )


def _produce(producer: Producer, topic: str, letter: DeadLetter, on_delivery: Callable[..., None]) -> None:
    """Queue one dead letter, serving delivery reports while librdkafka's local queue is full."""
    while True:
        try:
            producer.produce(topic, key=letter.source_topic, value=encode(letter), on_delivery=on_delivery)
            return
        except BufferError:
            producer.poll(0.5)


def _delivery_callback(letter: DeadLetter, failed: list[DeadLetter]) -> Callable[[KafkaError | None, Message], None]:
    def on_delivery(err: KafkaError | None, _msg: Message) -> None:
        if err is not None:
            log.warning("dead letter delivery failed: %s", err)
            failed.append(letter)
    return on_delivery
