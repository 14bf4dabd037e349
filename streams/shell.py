"""The thin I/O shell every Faust agent shares: decode, one catch point, state, emit, count.

``Shell.consume`` is the single place an agent's failure is caught (STYLE.md rule 8): a
message that does not decode or validate, or whose processing raises, becomes a
``dead_letter`` event with its raw bytes, topic, partition, offset, stage and error, is
counted, and the agent moves on. ``StateTable`` keeps each key's detector state in a
changelog-backed Faust table (JSON bytes), cached in memory and written behind.
"""

from __future__ import annotations

import base64
import json
import logging
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import faust
from faust.types import EventT, StreamT, TableT

from schemas import DeadLetter, Event, dead_letter, decode, encode, topic_for
from schemas.registry import BY_NAME, TOPICS
from schemas.settings import KafkaSettings
from streams.core.detector import Detector

log = logging.getLogger("faultline.streams")

Handler = Callable[[Event, "Message"], Awaitable[None]]


@dataclass(frozen=True)
class Message:
    """Where a decoded event came from."""

    topic: str
    partition: int
    offset: int
    key: str | None
    value: bytes
    timestamp: datetime | None = None
    """The broker's timestamp of the message (the event time of its dead letter, if any)."""


@dataclass
class StageStats:
    """What one agent did since the worker started."""

    consumed: int = 0
    dead_lettered: int = 0
    max_event_time: datetime | None = None


@dataclass
class Shell:
    """Topics of the registry bound to a Faust app, plus emit/dead-letter/consume helpers."""

    app: faust.App
    kafka: KafkaSettings
    topics: dict[str, faust.TopicT] = field(default_factory=dict)
    stats: dict[str, StageStats] = field(default_factory=dict)
    emitted: dict[str, int] = field(default_factory=dict)
    _logical: dict[str, str] = field(default_factory=dict)
    decode_owner: dict[str, str] = field(default_factory=dict)
    """physical topic -> the stage that dead-letters its undecodable messages (the first
    agent subscribed to it), so a bad message read by several agents is reported once."""

    def __post_init__(self) -> None:
        for spec in TOPICS:
            self.topics[spec.name] = self.app.topic(
                self.kafka.topic(spec.name), key_serializer="raw", value_serializer="raw",
                partitions=self.kafka.partitions, internal=False,
            )
        self._logical = {self.kafka.topic(spec.name): spec.name for spec in TOPICS}

    def source(self, stage: str, *names: str) -> faust.TopicT:
        """One Faust topic object subscribed to several registry topics (co-partitioned)."""
        for name in names:
            self.decode_owner.setdefault(self.kafka.topic(name), stage)
        return self.app.topic(*(self.kafka.topic(n) for n in names), key_serializer="raw",
                              value_serializer="raw")

    async def emit(self, event: Event, topic: str | None = None, key: str | None = None) -> None:
        """Publish a derived event on its registry topic (or ``topic``) with the registry key."""
        spec = topic_for(event) if topic is None else BY_NAME[topic]
        key = key if key is not None else spec.key_of(event)
        self.emitted[spec.name] = self.emitted.get(spec.name, 0) + 1
        await self.topics[spec.name].send(key=key.encode() if key else None, value=encode(event))

    async def forward(self, topic: str, key: str | None, value: bytes) -> None:
        """Re-key raw bytes onto another topic without re-encoding them."""
        self.emitted[topic] = self.emitted.get(topic, 0) + 1
        await self.topics[topic].send(key=key.encode() if key else None, value=value)

    def logical(self, physical_topic: str) -> str:
        """The registry name of a physical topic of this namespace."""
        return self._logical[physical_topic]

    async def dead_letter(self, stage: str, letter: DeadLetter) -> None:
        """Publish ``letter`` to the dead-letter topic and count it."""
        self.stats.setdefault(stage, StageStats()).dead_lettered += 1
        log.warning("%s: dead letter from %s@%s: %s", stage, letter.source_topic, letter.offset, letter.error)
        await self.emit(letter)

    async def consume(self, stage: str, stream: StreamT[Any], handle: Handler) -> None:
        """Run ``handle`` on every decoded message of ``stream``; the agent's one catch point."""
        stats = self.stats.setdefault(stage, StageStats())
        async for record in stream.events():
            message = _message(record)
            stats.consumed += 1
            event = decode(message.value, source_topic=message.topic, partition=message.partition,
                           offset=message.offset, key=message.key, topic=self._logical.get(message.topic),
                           event_time=message.timestamp)
            if isinstance(event, DeadLetter):
                if self.decode_owner.get(message.topic, stage) == stage:
                    await self.dead_letter(stage, event)
                continue
            if stats.max_event_time is None or event.event_time > stats.max_event_time:
                stats.max_event_time = event.event_time
            try:
                await handle(event, message)
            except Exception as exc:  # noqa: BLE001 - the single catch point: dead-letter and go on
                log.exception("%s failed on %s@%s", stage, message.topic, message.offset)
                await self.dead_letter(stage, _process_letter(event, message, exc))

    def summary(self) -> str:
        """Counters per stage (consumed, dead-lettered) and per output topic, for the stats log."""
        stages = "; ".join(f"{k}: in {s.consumed} dead {s.dead_lettered}" for k, s in sorted(self.stats.items()))
        outputs = ", ".join(f"{k} {v}" for k, v in sorted(self.emitted.items()))
        return f"{stages} | out: {outputs or 'nothing yet'}"


def _message(record: EventT[Any]) -> Message:
    msg = record.message
    key = msg.key.decode("utf-8", "replace") if isinstance(msg.key, bytes) else msg.key
    value = msg.value if isinstance(msg.value, bytes) else bytes(msg.value or b"")
    stamp = datetime.fromtimestamp(msg.timestamp, UTC) if msg.timestamp else None
    return Message(msg.topic, msg.partition, msg.offset, key, value, stamp)


def _process_letter(event: Event, message: Message, exc: Exception) -> DeadLetter:
    return dead_letter(message.value, source_topic=message.topic, stage="process",
                       error=f"{type(exc).__name__}: {exc}", partition=message.partition,
                       offset=message.offset, key=message.key, cluster=event.cluster,
                       event_time=event.event_time)


def pack_state(data: Any) -> str:
    """A detector's dumped state as compact text for a changelog message.

    Job states hold windows of samples for every rank (hundreds of KB for a 64-node job);
    deflate shrinks the JSON about tenfold so they stay far below Kafka's message limit.
    """
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.b64encode(zlib.compress(raw, 1)).decode("ascii")


def unpack_state(text: str) -> Any:
    """Inverse of :func:`pack_state`."""
    return json.loads(zlib.decompress(base64.b64decode(text)))


class StateTable:
    """Detector state per key in a changelog-backed Faust table, cached in memory.

    ``get`` returns the live state object (loaded from the table on first use). ``put``
    writes it back to the table (and so to its changelog) when the detector emitted
    something or when ``every_s`` of event time passed since the key's last write: Faust
    only lets a table change inside stream iteration, and dumping a large job state on
    every message would dominate the cost. After a crash a key's state is at most
    ``every_s`` of event time old; at-least-once delivery plus deterministic ids keep the
    outputs right. Call ``put`` only from inside the agent's stream iteration.
    """

    def __init__(self, table: TableT[Any, Any], detector: Detector[Any], every_s: float) -> None:
        self.table = table
        self.detector = detector
        self.every_s = every_s
        self.cache: dict[str, Any] = {}
        self.written_at: dict[str, datetime] = {}
        self.latest: dict[str, datetime] = {}
        """Newest event time seen per key (the stage's clock is their median, see app._tick)."""

    def get(self, key: str) -> Any:
        """The live state of ``key``."""
        if key not in self.cache:
            raw = self.table.get(key)
            self.cache[key] = self.detector.load(unpack_state(raw)) if raw else self.detector.initial()
        return self.cache[key]

    def put(self, key: str, state: Any, event_time: datetime, changed: bool) -> None:
        """Keep ``state`` for ``key``; persist it now if ``changed`` or it is due."""
        self.cache[key] = state
        if key not in self.latest or event_time > self.latest[key]:
            self.latest[key] = event_time
        last = self.written_at.get(key)
        if changed or last is None or (event_time - last).total_seconds() >= self.every_s:
            self.table[key] = pack_state(self.detector.dump(state))
            self.written_at[key] = event_time

    def median_latest(self) -> datetime | None:
        """The median of the keys' newest event times (None before any event): a stage clock
        that one key with a skewed clock cannot drag forward."""
        if not self.latest:
            return None
        ordered = sorted(self.latest.values())
        return ordered[len(ordered) // 2]

    def forget(self) -> None:
        """Drop the cache after a rebalance: the table is the truth for reassigned keys."""
        self.cache.clear()
        self.written_at.clear()
        self.latest.clear()
