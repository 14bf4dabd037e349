"""Each key's detector state and the input offsets it reflects, kept in a changelog-backed
Faust table: the effectively-once rules of the worker (docs/topology.md) and the record
layout of ``streams.state_record`` (one value, or a head and its parts).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from faust.types import TableT

from streams import state_record
from streams.core.detector import Detector
from streams.shell import Ack, Delivery, Message
from streams.state_record import Decoded, Encoded, MissingPart, part_key, part_owner, storage_key

log = logging.getLogger("faultline.streams")

READ_PER_STATE_BYTE = 1.0
"""Input bytes a key must have applied since its last snapshot, per byte of that snapshot's
state JSON, before its event-time cadence takes the next one (unless ``every_s`` of wall time
passed). A snapshot costs tens of ns of CPU per byte of its state JSON (dump, JSON, deflate:
~15 ms for a 16-node fleet's job of up to 0.7 MB), the worker ~1 us per byte of input it
reads: draining a backlog, cadence snapshots then cost a few % of the reading's CPU,
whatever the state's size, instead of one per 10 s of event time (a few hundred ms of wall)."""


@dataclass
class _Unsaved:
    """What a key did since its last snapshot was taken: input records to ack, outputs sent."""

    acks: list[Ack] = field(default_factory=list)
    sent: list[Delivery] = field(default_factory=list)
    read_bytes: int = 0
    """Bytes of the input records applied (their raw values)."""


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

    Snapshots are taken when the detector emitted something, or on a cadence (:meth:`_due`):
    ``every_s`` of event time after the key's last one, once the key has also applied
    ``read_per_state_byte`` input bytes per byte of that snapshot's state JSON or ``every_s``
    of wall time has passed (dumping a large job state on every message, or every few records
    of a backlog read far faster than real time, would dominate the cost). ``every_s`` 0: on
    every record. Snapshots are written by :meth:`sweep` from inside the stream iteration of an
    event of the same partition (Faust writes a table's changelog to the current event's
    partition). A crash re-reads per key the later of ``every_s`` of event time and the earlier
    of that many input bytes and ``every_s`` of wall time of processing; what it re-applies
    emits the same deterministic ids again, which sinks and actuators deduplicate.

    A record split into parts is written parts first (only those not already stored), then
    its head, then tombstones for the key's parts no head references any more, all to the
    key's partition in that order: a head read on recovery only references parts written
    before it, and the orphans of a write a crash interrupted go at the key's next write.
    """

    def __init__(self, table: TableT[Any, Any], detector: Detector[Any], every_s: float,
                 sweep_every: int = 64, read_per_state_byte: float = READ_PER_STATE_BYTE,
                 clock: Callable[[], float] = time.monotonic,
                 single_max_bytes: int = state_record.SINGLE_MAX_RAW_BYTES) -> None:
        self.table = table
        self.detector = detector
        self.every_s = every_s
        self.sweep_every = sweep_every
        self.read_per_state_byte = read_per_state_byte
        self.clock = clock
        """Wall (monotonic) seconds: quiet keys, and the wall-time bound of the snapshot cadence."""
        self.single_max_bytes = single_max_bytes
        """A state whose JSON is longer is written as a head and parts (``state_record.encode``)."""
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
        self._taken: dict[str, tuple[float, int]] = {}
        """Per key, (wall time, state JSON bytes) of its last snapshot: the cadence's other bounds."""
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
        self._put_at_s[key] = self.clock()
        self.cache[key] = state
        if key not in self.latest or event_time > self.latest[key]:
            self.latest[key] = event_time
        self.applied[key][_position(message)] = message.offset
        unsaved = self._touch(key, message.partition)
        unsaved.acks.append(message.ack)
        unsaved.sent.extend(sent)
        unsaved.read_bytes += len(message.value)
        if changed or self._due(key, event_time):
            self._snapshot(key, event_time)

    def _due(self, key: str, now: datetime) -> bool:
        """Whether ``key``'s unsaved changes are due for a snapshot at event time ``now``: its
        first, or ``every_s`` of event time after its last once it has also read
        ``read_per_state_byte`` input bytes per byte of the last one's state JSON or ``every_s``
        of wall time has passed. Live, event time keeps pace with wall time, so the cadence is
        ``every_s`` of event time as before; a backlog is read far faster than real time, and
        the input bytes bound snapshots to a share of the reading's cost."""
        last = self.written_at.get(key)
        if last is None or self.every_s <= 0:
            return True
        if (now - last).total_seconds() < self.every_s:
            return False
        taken_s, state_bytes = self._taken.get(key, (float("-inf"), 0))
        unsaved = self._unsaved.get(key)
        read = unsaved.read_bytes if unsaved is not None else 0
        return read >= self.read_per_state_byte * state_bytes or self.clock() - taken_s >= self.every_s

    def touch(self, key: str, sent: list[Delivery]) -> None:
        """``key``'s state changed outside an input record (a flush) and emitted ``sent``."""
        if key in self._partition_of:
            self._touch(key, self._partition_of[key]).sent.extend(sent)

    def sweep(self, partition: int, now: datetime, key: str | None = None, force: bool = False) -> None:
        """Write the snapshot of ``key`` (the current record's) if its outputs are delivered.
        Every ``sweep_every`` records of the partition (or when ``force``) do the same for all
        its keys, and snapshot those whose unsaved changes are due at event time ``now``
        (:meth:`_due`)."""
        if key is not None:
            self._write(key)
        count = self._since_sweep.get(partition, 0) + 1
        if count < self.sweep_every and not force:
            self._since_sweep[partition] = count
            return
        self._since_sweep[partition] = 0
        keys = self._open.get(partition, set())
        for open_key in sorted(keys):
            if open_key in self._unsaved and self._due(open_key, now):
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
                                     self._stored.get(key, ()), self.single_max_bytes)
        self._snapshots[key] = _Snapshot(record, acks, sent)
        self.written_at[key] = event_time
        self._taken[key] = (self.clock(), record.state_bytes)

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
                          self._partition_of, self._open, self._since_sweep, self._put_at_s, self._stored, self._taken):
            attribute.clear()
        self._part_index = None


def _position(message: Message) -> str:
    return f"{message.topic}#{message.partition}"
