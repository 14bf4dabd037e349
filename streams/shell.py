"""The thin I/O shell every Faust agent shares: decode, one catch point, emit, count.

``Shell.consume`` is the single place an agent's failure is caught (STYLE.md rule 8): a
message that does not decode or validate, or whose processing raises, becomes a
``dead_letter`` event with its raw bytes, topic, partition, offset, stage and error, is
counted, and the agent moves on. Each key's detector state is kept by
``streams.state_table.StateTable``, which acks records once their state is saved.
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
from faust.transport.consumer import Consumer as FaustConsumer
from faust.types import TP, EventT, StreamT

from schemas import DeadLetter, Event, dead_letter, decode, encode, topic_for
from schemas.registry import BY_NAME, TOPICS
from schemas.settings import KafkaSettings
from streams.align import FetchGate, InputAligner
from streams.core.reorder import time_us

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
    gate: FetchGate = field(default_factory=FetchGate)
    """Which input partitions are not fetched for now (``streams.align.FetchGate``)."""

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

    async def rewind_uncommitted(self, inputs: frozenset[str]) -> list[TP]:
        """Seek every assigned partition of ``inputs`` that the group never committed (or
        committed at 0) to the start of its log; returns those partitions.

        Called after each assignment's table recovery, before Faust resumes the stream
        partitions. Faust re-reads what a rebalance discarded (records a fetch returned while the
        partition was paused, its agents' buffers, the aligners) by seeking each partition to its
        committed offset, but aiokafka's ``seek_to_committed`` skips a partition with no commit
        or a commit of 0: those records were never read again, never acked, and the group never
        committed the partition (issue 16, four workers on a backlog). Reading from the start
        again is what a fresh consumer does (``auto_offset_reset`` earliest); what a key's saved
        state already reflects is skipped (``StateTable.seen``)."""
        consumer = cast(FaustConsumer, self.app.consumer)  # ConsumerT lacks seek_to_committed
        if not consumer.assignment():
            return []  # more workers than partitions: nothing to read (aiokafka asserts one)
        committed = await consumer.seek_to_committed()
        fresh = sorted(TP(tp.topic, tp.partition) for tp, offset in committed.items()
                       if tp.topic in inputs and not offset)
        if fresh:
            await consumer.seek_wait(dict.fromkeys(fresh, 0))
        return fresh

    def resume_all(self) -> None:
        """Fetch every partition again (a rebalance clears the aligners the pauses were for)."""
        for where in self.gate.clear():
            self._resume(where)

    def _pause(self, where: tuple[str, int]) -> None:
        """Stop fetching partition ``where`` for now, through Faust's own buffer flow control:
        what was fetched is still delivered. (``Consumer.pause_partitions`` drops the rest of
        the batch being delivered for the partition, and its offsets count as read: lost.)"""
        self.app.consumer.on_buffer_full(TP(*where))

    def _resume(self, where: tuple[str, int]) -> None:
        """Fetch partition ``where`` again (undoes ``_pause``). Faust's own buffer flow control
        shares the mechanism, so either may resume what the other paused: a pause only saves
        fetching, it is never needed for the order or for the effectively-once rules."""
        self.app.consumer.on_buffer_drop(TP(*where))

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
                if aligner.add(where, time_us(event.event_time), (event, message), time.monotonic(), message.offset):
                    flow.added.set()  # else the processor's answer is unchanged: it need not wake up
                if self.gate.read(where):
                    self._pause(where)
                while aligner.held >= aligner.max_held and not worker.done():
                    flow.freed.clear()  # a rebalance may clear the aligner: look again now and then
                    await _wait(flow.freed, FULL_RECHECK_S)
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
                await _wait(flow.added, None if due_s is None else min(max(due_s - now_s, 0.005), BLOCKED_RECHECK_S))
                continue
            event, message = item
            if self.gate.released((message.topic, message.partition), aligner):
                self._resume((message.topic, message.partition))
            try:
                await self._process(stage, event, message, handle)
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


async def _wait(event: asyncio.Event, timeout_s: float | None) -> None:
    """Wait until ``event`` is set, at most ``timeout_s`` (None: no limit). Unlike
    ``asyncio.wait_for``, creates no task per call: a processor waits once per record it
    finds held back."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout_s):
            await event.wait()


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
