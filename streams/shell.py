"""The thin I/O shell every Faust agent shares: decode, one catch point, state, emit, count.

``Shell.consume`` is the single place an agent's failure is caught (STYLE.md rule 8): a
message that does not decode or validate, or whose processing raises, becomes a
``dead_letter`` event with its raw bytes, topic, partition, offset, stage and error, is
counted, and the agent moves on. ``StateTable`` keeps each key's detector state in a
changelog-backed Faust table (compressed JSON, split into parts when large:
``streams.state_record``), cached in memory and written behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import faust
from faust.types import TP, EventT, StreamT, TableT

from schemas import DeadLetter, Event, dead_letter, decode, encode, topic_for
from schemas.registry import BY_NAME, TOPICS
from schemas.settings import KafkaSettings
from streams import state_record
from streams.align import InputAligner
from streams.core.detector import Detector
from streams.core.reorder import time_us
from streams.state_record import Decoded, Encoded, MissingPart, part_key, part_owner, storage_key

log = logging.getLogger("faultline.streams")

Handler = Callable[[Event, "Message"], Awaitable[None]]
Ack = Callable[[], object]
"""Marks one input record as processed (Faust ``event.ack``): its offset may then be committed."""
Delivery = asyncio.Future[Any]
"""The producer's promise for one sent message; done when the broker acknowledged it."""
Aligned = tuple[Event, "Message"]
"""A decoded record waiting in an agent's aligner."""
FULL_RECHECK_S = 0.1
"""Wall seconds between looks of a reading loop that waits for room in its aligner."""
BLOCKED_RECHECK_S = 0.05
"""Wall seconds between looks of a processing task whose next record waits for a partition
known to deliver (or an upstream stage known to be behind): what it waits on is not its own."""


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
    ack: Ack = field(default=lambda: None, compare=False, repr=False)
    """Acknowledge the record (its offset may be committed); the handler owns this call."""


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
    _written: dict[tuple[str, int], int] = field(default_factory=dict)
    """(physical topic, partition) -> the offset after the last message this process wrote there."""

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

    async def emit(self, event: Event, topic: str | None = None, key: str | None = None) -> Delivery:
        """Publish a derived event on its registry topic (or ``topic``) with the registry key;
        returns the delivery (done once the broker has it)."""
        spec = topic_for(event) if topic is None else BY_NAME[topic]
        key = key if key is not None else spec.key_of(event)
        self.emitted[spec.name] = self.emitted.get(spec.name, 0) + 1
        sent = await self.topics[spec.name].send(key=key.encode() if key else None, value=encode(event))
        return self._track(cast(Delivery, sent))

    async def forward(self, topic: str, key: str | None, value: bytes) -> Delivery:
        """Re-key raw bytes onto another topic without re-encoding them; returns the delivery."""
        self.emitted[topic] = self.emitted.get(topic, 0) + 1
        sent = await self.topics[topic].send(key=key.encode() if key else None, value=value)
        return self._track(cast(Delivery, sent))

    def pending(self, where: tuple[str, int], next_offset: int | None) -> bool:
        """Whether partition ``where`` is known to hold a record at or after ``next_offset``
        (None: the group's committed offset, where reading the partition starts): this process
        wrote one there (the broker acknowledged it), or the consumer's last fetch saw the
        partition's high watermark past it (the ``Supply`` of the input aligners). A message
        still on its way to the broker is not counted: its partition is not known yet, and the
        writer's frontier (``streams.align``) covers it within the slack."""
        tp = TP(*where)
        if next_offset is None:
            # Faust's record of the group's committed offsets (set when it seeks to them after an
            # assignment, updated on each commit); None: nothing committed, reading starts at 0
            committed: dict[TP, int | None] = getattr(self.app.consumer, "_committed_offset", {})
            next_offset = committed.get(tp) or 0
        if self._written.get(where, 0) > next_offset:
            return True
        try:
            highwater = self.app.consumer.highwater(tp)
        except Exception:  # noqa: BLE001 - a consumer without the partition's metadata yet: unknown
            return False
        return highwater is not None and int(highwater) > next_offset

    def _track(self, delivery: Delivery) -> Delivery:
        """Count ``delivery`` as written once the broker has it."""
        delivery.add_done_callback(self._delivered)
        return delivery

    def _delivered(self, done: Delivery) -> None:
        if done.cancelled() or done.exception() is not None:
            return
        meta = done.result()
        where = (meta.topic, meta.partition)
        self._written[where] = max(self._written.get(where, 0), meta.offset + 1)

    def logical(self, physical_topic: str) -> str:
        """The registry name of a physical topic of this namespace."""
        return self._logical[physical_topic]

    async def dead_letter(self, stage: str, letter: DeadLetter) -> None:
        """Publish ``letter`` to the dead-letter topic and count it."""
        self.stats.setdefault(stage, StageStats()).dead_lettered += 1
        log.warning("%s: dead letter from %s@%s: %s", stage, letter.source_topic, letter.offset, letter.error)
        await self.emit(letter)

    async def consume(self, stage: str, stream: StreamT[Any], handle: Handler, aligner: InputAligner[Aligned]) -> None:
        """Run ``handle`` on every decoded message of ``stream``; the agent's one catch point.

        Acks are manual: ``handle`` owns ``message.ack`` (the state table calls it once the
        key's state reflecting the record is saved). A record that becomes a dead letter is
        acked here: Faust delivers the letter before it commits the offset.

        Reading and processing are decoupled: this loop reads and decodes as fast as records
        come (so the worker's one fetch loop is never held up by a slow agent, and what an
        upstream stage produced reaches its readers quickly) and a task processes them in the
        order ``aligner`` releases them (``streams.align``). The loop waits only while the
        aligner is full."""
        stats = self.stats.setdefault(stage, StageStats())
        flow = _Flow()
        worker = asyncio.ensure_future(self._process_aligned(stage, aligner, handle, flow))
        try:
            async for record in stream.noack().events():  # type: ignore[attr-defined]  # Stream has it, StreamT lacks it
                message = _message(record)
                stats.consumed += 1
                event = decode(message.value, source_topic=message.topic, partition=message.partition,
                               offset=message.offset, key=message.key, topic=self._logical.get(message.topic),
                               event_time=message.timestamp)
                where = (message.topic, message.partition)
                if isinstance(event, DeadLetter):
                    if self.decode_owner.get(message.topic, stage) == stage:
                        await self.dead_letter(stage, event)
                    message.ack()
                    aligner.skip(where, message.offset)
                    continue
                aligner.add(where, time_us(event.event_time), (event, message), time.monotonic(), message.offset)
                flow.added.set()
                while aligner.held >= aligner.max_held and not worker.done():
                    flow.freed.clear()  # a rebalance may clear the aligner: look again now and then
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(flow.freed.wait(), FULL_RECHECK_S)
                if worker.done():
                    worker.result()  # the processing task died: raise its error in the agent
        finally:
            worker.cancel()

    async def _process_aligned(self, stage: str, aligner: InputAligner[Aligned], handle: Handler,
                               flow: _Flow) -> None:
        """Process what ``aligner`` releases, for as long as the agent runs; sleep until a
        record is added or a wait for a dry partition runs out."""
        while True:
            now_s = time.monotonic()
            item = aligner.pop(now_s)
            if item is None:
                due_s = aligner.next_due_s(now_s)
                flow.added.clear()
                with contextlib.suppress(TimeoutError):
                    wait_s = None if due_s is None else min(max(due_s - now_s, 0.005), BLOCKED_RECHECK_S)
                    await asyncio.wait_for(flow.added.wait(), wait_s)
                continue
            try:
                await self._process(stage, *item, handle)
            finally:
                aligner.done()
            flow.freed.set()

    async def _process(self, stage: str, event: Event, message: Message, handle: Handler) -> None:
        stats = self.stats.setdefault(stage, StageStats())
        if stats.max_event_time is None or event.event_time > stats.max_event_time:
            stats.max_event_time = event.event_time
        try:
            await handle(event, message)
        except Exception as exc:  # noqa: BLE001 - the single catch point: dead-letter and go on
            log.exception("%s failed on %s@%s", stage, message.topic, message.offset)
            await self.dead_letter(stage, _process_letter(event, message, exc))
            message.ack()

    def summary(self) -> str:
        """Counters per stage (consumed, dead-lettered) and per output topic, for the stats log."""
        stages = "; ".join(f"{k}: in {s.consumed} dead {s.dead_lettered}" for k, s in sorted(self.stats.items()))
        outputs = ", ".join(f"{k} {v}" for k, v in sorted(self.emitted.items()))
        return f"{stages} | out: {outputs or 'nothing yet'}"


@dataclass
class _Flow:
    """Signals between an agent's reading loop and its processing task."""

    added: asyncio.Event = field(default_factory=asyncio.Event)
    freed: asyncio.Event = field(default_factory=asyncio.Event)


def _message(record: EventT[Any]) -> Message:
    msg = record.message
    key = msg.key.decode("utf-8", "replace") if isinstance(msg.key, bytes) else msg.key
    value = msg.value if isinstance(msg.value, bytes) else bytes(msg.value or b"")
    stamp = datetime.fromtimestamp(msg.timestamp, UTC) if msg.timestamp else None
    return Message(msg.topic, msg.partition, msg.offset, key, value, stamp, _ack_once(record))


def _ack_once(record: EventT[Any]) -> Ack:
    """``record.ack`` that does nothing the second time (a message read by several agents is
    counted down once per agent, so a double ack would release another agent's hold)."""
    done = False

    def ack() -> object:
        nonlocal done
        if done:
            return False
        done = True
        return record.ack()

    return ack


def _process_letter(event: Event, message: Message, exc: Exception) -> DeadLetter:
    return dead_letter(message.value, source_topic=message.topic, stage="process",
                       error=f"{type(exc).__name__}: {exc}", partition=message.partition,
                       offset=message.offset, key=message.key, cluster=event.cluster,
                       event_time=event.event_time)


@dataclass
class _Unsaved:
    """What a key did since its last snapshot was taken: input records to ack, outputs sent."""

    acks: list[Ack] = field(default_factory=list)
    sent: list[Delivery] = field(default_factory=list)


@dataclass
class _Snapshot:
    """A key's state record, taken but not yet written: it waits until every output it
    reflects is delivered, then goes to the table and its input records are acked."""

    record: Encoded
    acks: list[Ack]
    sent: list[Delivery]

    def deliveries_done(self) -> bool:
        return all(d.done() for d in self.sent)

    def delivered(self) -> bool:
        return all(_succeeded(d) for d in self.sent)


def _succeeded(delivery: Delivery) -> bool:
    """Whether the broker acknowledged ``delivery`` (done, neither cancelled nor failed)."""
    return delivery.done() and not delivery.cancelled() and delivery.exception() is None


class StateTable:
    """Detector state per key, and the input offsets it reflects, in one changelog record:
    one value, or a head and its parts when the state is large (``streams.state_record``).

    Effectively-once without Kafka transactions (faust-streaming's exactly-once mode is not
    sound: see docs/topology.md). Three rules make a key's state and the consumer group's
    committed offsets agree after any crash:

    1. **Offsets live in the state.** A key's record holds its detector state and, per input
       topic-partition, the offset of the last record applied to it. A record at or below
       that offset is skipped (:meth:`seen`): re-delivery after a crash never applies an
       event twice (a burst is never counted twice).
    2. **Ack after the snapshot.** An input record is acked (so its offset may be committed)
       only when a state record reflecting it is written; Faust flushes the producer, table
       changelog included, before it commits. Committed offsets therefore never pass state
       that was not saved: nothing is lost.
    3. **Outputs before the snapshot.** A snapshot is written only once every output it
       reflects is delivered, so a skipped record's outputs are already on their topics.

    Snapshots are taken when the detector emitted something or ``every_s`` of event time
    after the key's last one (dumping a large job state on every message would dominate the
    cost), and written by :meth:`sweep` from inside the stream iteration of an event of the
    same partition (Faust writes a table's changelog to the current event's partition).
    A crash re-reads at most about ``every_s`` of event time per key; what it re-applies
    emits the same deterministic ids again, which sinks and actuators deduplicate.

    A record split into parts is written parts first (only those not already stored), then
    its head, then tombstones for the key's parts no head references any more, all to the
    key's partition in that order: a head read on recovery only references parts written
    before it, and the orphans of a write a crash interrupted go at the key's next write.
    """

    def __init__(self, table: TableT[Any, Any], detector: Detector[Any], every_s: float,
                 sweep_every: int = 64) -> None:
        self.table = table
        self.detector = detector
        self.every_s = every_s
        self.sweep_every = sweep_every
        self.cache: dict[str, Any] = {}
        self.applied: dict[str, dict[str, int]] = {}
        self.written_at: dict[str, datetime] = {}
        self.latest: dict[str, datetime] = {}
        """Newest event time seen per key (the stage's clock is their median, see app._tick)."""
        self.skipped = 0
        """Records skipped because the key's saved state already reflected them."""
        self._unsaved: dict[str, _Unsaved] = {}
        self._snapshots: dict[str, _Snapshot] = {}
        self._partition_of: dict[str, int] = {}
        self._open: dict[int, set[str]] = {}
        """Per partition, the keys with unsaved changes or a snapshot waiting to be written."""
        self._since_sweep: dict[int, int] = {}
        self._put_at_s: dict[str, float] = {}
        """Wall (monotonic) time of each key's last record: :meth:`save_idle` finds quiet keys."""
        self._stored: dict[str, set[str]] = {}
        """Per loaded key, the hashes of its parts in the table (referenced by its head or not)."""
        self._part_index: dict[str, set[str]] | None = None
        """Storage key -> hashes of its parts in the table, built at the first load after a
        (re)assignment: the parts of every key, orphans included, in one pass over the table."""

    def get(self, key: str) -> Any:
        """The live state of ``key`` (loaded with its applied offsets on first use).

        A record whose head references a part missing from the table (never expected: parts
        are written before their head) is logged and the key starts afresh."""
        if key not in self.cache:
            try:
                record = state_record.decode(self.table.get(storage_key(key)),
                                             lambda digest: self.table.get(part_key(key, digest)))
            except MissingPart as exc:
                log.error("state of %s cannot be loaded, starting afresh: %s", key, exc)
                record = Decoded(None, {})
            self.cache[key] = self.detector.initial() if record.state is None else self.detector.load(record.state)
            self.applied[key] = record.offsets
            self._stored[key] = self._parts_in_table(storage_key(key)) | set(record.parts)
        return self.cache[key]

    def _parts_in_table(self, stored_key: str) -> set[str]:
        """The hashes of the parts of ``stored_key`` in the table (one pass over the table's
        keys after each (re)assignment, then a lookup)."""
        if self._part_index is None:
            self._part_index = {}
            for name in list(self.table.data):
                owner = part_owner(name) if isinstance(name, str) else None
                if owner is not None:
                    self._part_index.setdefault(owner[0], set()).add(owner[1])
        return set(self._part_index.get(stored_key, ()))

    def seen(self, key: str, message: Message) -> bool:
        """Whether ``key``'s state already reflects ``message`` (a re-delivery after a crash)."""
        self.get(key)
        if message.offset <= self.applied[key].get(_position(message), -1):
            self.skipped += 1
            return True
        return False

    def put(self, key: str, state: Any, message: Message, sent: list[Delivery], event_time: datetime,
            changed: bool) -> None:
        """Keep ``state`` for ``key`` after applying ``message``, whose outputs are ``sent``;
        take a snapshot if ``changed`` or one is due. Call only inside the stream iteration."""
        self._write(key)  # a snapshot whose outputs arrived meanwhile goes now, before a newer supersedes it
        self._put_at_s[key] = time.monotonic()
        self.cache[key] = state
        if key not in self.latest or event_time > self.latest[key]:
            self.latest[key] = event_time
        self.applied[key][_position(message)] = message.offset
        unsaved = self._touch(key, message.partition)
        unsaved.acks.append(message.ack)
        unsaved.sent.extend(sent)
        last = self.written_at.get(key)
        if changed or last is None or (event_time - last).total_seconds() >= self.every_s:
            self._snapshot(key, event_time)

    def touch(self, key: str, sent: list[Delivery]) -> None:
        """``key``'s state changed outside an input record (a flush) and emitted ``sent``."""
        if key in self._partition_of:
            self._touch(key, self._partition_of[key]).sent.extend(sent)

    def sweep(self, partition: int, now: datetime, key: str | None = None, force: bool = False) -> None:
        """Write the snapshot of ``key`` (the current record's) if its outputs are delivered.
        Every ``sweep_every`` records of the partition (or when ``force``) do the same for all
        its keys, and snapshot those whose unsaved changes are ``every_s`` old in event time
        ``now``."""
        if key is not None:
            self._write(key)
        count = self._since_sweep.get(partition, 0) + 1
        if count < self.sweep_every and not force:
            self._since_sweep[partition] = count
            return
        self._since_sweep[partition] = 0
        keys = self._open.get(partition, set())
        for open_key in sorted(keys):
            last = self.written_at.get(open_key)
            if open_key in self._unsaved and (last is None or (now - last).total_seconds() >= self.every_s):
                self._snapshot(open_key, now)
            self._write(open_key)
        self._drop_saved(keys)

    def save_idle(self, now_s: float, idle_s: float) -> None:
        """Snapshot the keys with unsaved changes that no record touched for ``idle_s`` of wall
        time (``now_s``: monotonic seconds), and write every snapshot whose outputs arrived.

        Run from a timer: without it, the last records of a partition that fell quiet would stay
        unacked (harmless after a crash, they are skipped, but the group's lag never reaches 0).
        A snapshot taken here carries the key's newest event time as its own."""
        for key in [k for k in self._unsaved if now_s - self._put_at_s.get(k, now_s) >= idle_s]:
            self._snapshot(key, self.latest[key])  # every key with changes had a record (put sets latest)
        for key in list(self._snapshots):
            self._write(key)
        for keys in self._open.values():
            self._drop_saved(keys)

    def _write(self, key: str) -> None:
        """Write ``key``'s waiting snapshot and ack what it covers, once its outputs are delivered.

        The changelog record goes to the key's own partition, named explicitly, so this may run
        outside the stream iteration of a record of that key (Faust's ``table[key] = value``
        takes the partition of the record being processed)."""
        snapshot = self._snapshots.get(key)
        if snapshot is None or not snapshot.deliveries_done():
            return
        del self._snapshots[key]
        if snapshot.delivered():
            self._store(key, snapshot.record)
            for ack in snapshot.acks:
                ack()
        else:  # an output failed: leave its inputs unacked, they are read again after a restart
            log.error("state of %s not saved: an output it reflects was not delivered", key)

    def _store(self, key: str, record: Encoded) -> None:
        """Write ``record`` of ``key`` to the table and its changelog: its new parts, its head,
        then tombstones for the key's parts it does not reference (the previous record's, and
        orphans of a write a crash interrupted)."""
        partition = self._partition_of[key]
        for digest, value in record.new_parts.items():
            self._send(partition, part_key(key, digest), value)
        self._send(partition, storage_key(key), record.head)
        for digest in sorted(self._stored.get(key, set()) - set(record.parts)):
            self.table.data.pop(part_key(key, digest), None)
            self.table.send_changelog(partition, part_key(key, digest), None, value_serializer="raw")
        self._stored[key] = set(record.parts)

    def _send(self, partition: int, stored_key: str, value: bytes) -> None:
        self.table.data[stored_key] = value
        self.table.send_changelog(partition, stored_key, value)

    def _drop_saved(self, keys: set[str]) -> None:
        """Forget, in one partition's open set, the keys with nothing left to save."""
        keys.difference_update([k for k in keys if k not in self._unsaved and k not in self._snapshots])

    def _touch(self, key: str, partition: int) -> _Unsaved:
        self._partition_of[key] = partition
        self._open.setdefault(partition, set()).add(key)
        return self._unsaved.setdefault(key, _Unsaved())

    def _snapshot(self, key: str, event_time: datetime) -> None:
        """Take ``key``'s snapshot now; it supersedes (and inherits) one still waiting."""
        unsaved = self._unsaved.pop(key, _Unsaved())
        waiting = self._snapshots.get(key)
        acks = (waiting.acks if waiting else []) + unsaved.acks
        sent = [d for d in (waiting.sent if waiting else []) if not _succeeded(d)] + unsaved.sent
        record = state_record.encode(self.detector.dump(self.cache[key]), dict(sorted(self.applied[key].items())),
                                     self._stored.get(key, ()))
        self._snapshots[key] = _Snapshot(record, acks, sent)
        self.written_at[key] = event_time

    def median_latest(self) -> datetime | None:
        """The median of the keys' newest event times (None before any event): a stage clock
        that one key with a skewed clock cannot drag forward."""
        if not self.latest:
            return None
        ordered = sorted(self.latest.values())
        return ordered[len(ordered) // 2]

    def forget(self) -> None:
        """Drop everything after a rebalance: the table is the truth for reassigned keys, and
        records not yet acked are delivered again to whoever owns them now."""
        for attribute in (self.cache, self.applied, self.written_at, self.latest, self._unsaved, self._snapshots,
                          self._partition_of, self._open, self._since_sweep, self._put_at_s, self._stored):
            attribute.clear()
        self._part_index = None


def _position(message: Message) -> str:
    return f"{message.topic}#{message.partition}"
