"""StateTable: a key's state and the input offsets it reflects are saved as one record.

The table here is a plain dict (what StateTable uses of a Faust table: ``get`` and item
assignment); deliveries are real asyncio futures resolved by the test, as the producer would.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from streams.core.detector import JsonData
from streams.shell import Delivery, Message
from streams.state_record import MAX_VALUE_BYTES, part_owner, unpack_state
from streams.state_table import StateTable
from tests.unit.core.test_state_record import legacy_value

T0 = datetime(2026, 11, 23, 12, tzinfo=UTC)
RECORD = b"x" * 16
"""An input record's raw value: more bytes than the counter's state JSON, so reading one is
enough input for the snapshot cadence (``StateTable._due``)."""


@dataclass
class Counter:
    """A detector whose state counts what it was given."""

    name: str = "count"

    def initial(self) -> int:
        return 0

    def dump(self, state: int) -> JsonData:
        return {"n": state}

    def load(self, data: JsonData) -> int:
        return int(data["n"])


class Store(dict[str, Any]):
    """What StateTable uses of a Faust table: ``get``, the store ``data`` and ``send_changelog``."""

    def __init__(self) -> None:
        super().__init__()
        self.data = self
        self.changelog: list[tuple[int, str, bytes | None]] = []

    @classmethod
    def of(cls, values: dict[str, Any]) -> Store:
        store = cls()
        store.update(values)
        return store

    def send_changelog(self, partition: int, key: str, value: bytes | None, value_serializer: str | None = None) -> None:
        self.changelog.append((partition, key, value))


@dataclass
class Acks:
    done: list[int] = field(default_factory=list)

    def message(self, offset: int, partition: int = 0) -> Message:
        return Message("in", partition, offset, "k", RECORD, ack=lambda: self.done.append(offset))


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def delivery(loop: asyncio.AbstractEventLoop, done: bool) -> Delivery:
    future: Delivery = loop.create_future()
    if done:
        future.set_result(None)
    return future


def apply(table: StateTable, acks: Acks, offset: int, sent: list[Delivery], changed: bool = False) -> None:
    """What the worker's handler does with one record of key ``k``."""
    message = acks.message(offset)
    if not table.seen("k", message):
        table.put("k", table.get("k") + 1, message, sent, T0 + timedelta(seconds=offset), changed)
    table.sweep(0, T0 + timedelta(seconds=offset), "k", force=True)


def test_a_record_is_acked_only_once_its_state_is_saved(loop: asyncio.AbstractEventLoop) -> None:
    store = Store()
    table, acks = StateTable(store, Counter(), every_s=10), Acks()  # type: ignore[arg-type]
    apply(table, acks, 0, [])  # the first record of a key is always snapshotted
    assert acks.done == [0] and unpack_state(store["k"]) == {"state": {"n": 1}, "offsets": {"in#0": 0}}
    for offset in (1, 2, 3):  # nothing emitted, not due: unsaved, so not acked
        apply(table, acks, offset, [])
    assert acks.done == [0]
    apply(table, acks, 11, [])  # 11 s of event time since the last snapshot
    assert acks.done == [0, 1, 2, 3, 11]
    assert unpack_state(store["k"]) == {"state": {"n": 5}, "offsets": {"in#0": 11}}
    assert [(p, k) for p, k, _ in store.changelog] == [(0, "k"), (0, "k")]


def test_a_key_that_falls_quiet_is_saved_by_the_timer(loop: asyncio.AbstractEventLoop) -> None:
    store = Store()
    table, acks = StateTable(store, Counter(), every_s=10), Acks()  # type: ignore[arg-type]
    apply(table, acks, 0, [])
    apply(table, acks, 1, [])  # unsaved: not due in event time, and no record follows
    assert acks.done == [0]
    table.save_idle(time.monotonic() + 5, idle_s=1)
    assert acks.done == [0, 1] and unpack_state(store["k"])["offsets"] == {"in#0": 1}


def test_a_snapshot_waits_for_the_outputs_it_reflects(loop: asyncio.AbstractEventLoop) -> None:
    store = Store()
    table, acks = StateTable(store, Counter(), every_s=10), Acks()  # type: ignore[arg-type]
    pending = delivery(loop, done=False)
    apply(table, acks, 0, [pending], changed=True)
    assert "k" not in store and acks.done == []  # the output is not on the broker yet
    pending.set_result(None)
    apply(table, acks, 1, [delivery(loop, done=True)], changed=True)
    assert acks.done == [0, 1] and unpack_state(store["k"])["offsets"] == {"in#0": 1}


def test_a_failed_output_leaves_its_records_unacked(loop: asyncio.AbstractEventLoop) -> None:
    store = Store()
    table, acks = StateTable(store, Counter(), every_s=10), Acks()  # type: ignore[arg-type]
    failed = delivery(loop, done=False)
    failed.set_exception(RuntimeError("broker said no"))
    apply(table, acks, 0, [failed], changed=True)
    assert acks.done == [] and "k" not in store


def test_after_a_crash_records_the_saved_state_reflects_are_skipped(loop: asyncio.AbstractEventLoop) -> None:
    store = Store()
    before, acks = StateTable(store, Counter(), every_s=10), Acks()  # type: ignore[arg-type]
    for offset in range(5):
        apply(before, acks, offset, [], changed=True)  # saved after every record
    for offset in (5, 6):
        apply(before, acks, offset, [])  # applied, not yet saved: lost in the crash
    # the consumer group resumes after the last acked record; say it re-reads from 3
    after, again = StateTable(store, Counter(), every_s=10), Acks()  # type: ignore[arg-type]
    for offset in range(3, 8):
        apply(after, again, offset, [])
    assert after.skipped == 2  # 3 and 4 were in the saved state
    assert after.get("k") == 8  # 0..7 counted once each


@dataclass
class Padded:
    """A counter whose state JSON is ~1,000 bytes: many input records' worth."""

    name: str = "padded"

    def initial(self) -> int:
        return 0

    def dump(self, state: int) -> JsonData:
        return {"n": state, "pad": "p" * 1_000}

    def load(self, data: JsonData) -> int:
        return int(data["n"])


@dataclass
class Clock:
    """Wall (monotonic) seconds, moved by the test."""

    now_s: float = 1_000.0

    def __call__(self) -> float:
        return self.now_s


def test_the_cadence_waits_for_as_much_input_as_the_state_json(loop: asyncio.AbstractEventLoop) -> None:
    """A backlog passes ``every_s`` of event time in a few records: a snapshot then also waits
    until the key has read its last snapshot's state JSON size of input (1,000+ bytes here)."""
    store, clock = Store(), Clock()
    table, acks = StateTable(store, Padded(), every_s=10, clock=clock), Acks()  # type: ignore[arg-type]
    apply(table, acks, 0, [])  # first record: snapshot (state JSON ~1,020 bytes)
    offsets = [20 * i for i in range(1, 201)]  # 20 s of event time apart: due in event time each
    for offset in offsets:
        apply(table, acks, offset, [])
        saved = unpack_state(store["k"])["offsets"]["in#0"]
        read = sum(len(RECORD) for o in offsets if saved < o <= offset)  # input bytes not yet saved
        assert read < 1_050  # never more unsaved input than the state's size (plus one record)
    snapshots = len(store.changelog)  # one value each (a small state): 3,200 bytes read / ~1,020
    assert 3 <= snapshots <= 5  # (every record's, 201, before the input bound)
    assert acks.done == [0, *offsets[:offsets.index(saved) + 1]]  # acked exactly up to the saved offset


def test_the_cadence_takes_a_snapshot_after_every_s_of_wall_time(loop: asyncio.AbstractEventLoop) -> None:
    """Live, a key with little input is snapshotted every ``every_s`` as before: event time keeps
    pace with wall time, and ``every_s`` of wall time since the last snapshot is enough."""
    store, clock = Store(), Clock()
    table, acks = StateTable(store, Padded(), every_s=10, clock=clock), Acks()  # type: ignore[arg-type]
    apply(table, acks, 0, [])
    clock.now_s += 5
    apply(table, acks, 11, [])  # 11 s of event time, 16 bytes read, 5 s of wall time: not due
    assert acks.done == [0]
    clock.now_s += 5
    apply(table, acks, 12, [])  # 10 s of wall time: due
    assert acks.done == [0, 11, 12] and unpack_state(store["k"])["offsets"] == {"in#0": 12}
    clock.now_s += 60
    apply(table, acks, 15, [])  # wall time alone is not enough: event time must pass every_s too
    assert acks.done == [0, 11, 12]


def test_a_stage_with_no_cadence_snapshots_every_record(loop: asyncio.AbstractEventLoop) -> None:
    store, clock = Store(), Clock()
    table, acks = StateTable(store, Padded(), every_s=0, clock=clock), Acks()  # type: ignore[arg-type]
    for offset in range(5):
        apply(table, acks, offset, [])
    assert acks.done == [0, 1, 2, 3, 4]


def test_the_sweep_applies_the_same_cadence_to_keys_no_record_touches(loop: asyncio.AbstractEventLoop) -> None:
    store, clock = Store(), Clock()
    table, acks = StateTable(store, Padded(), every_s=10, clock=clock), Acks()  # type: ignore[arg-type]
    apply(table, acks, 0, [])
    apply(table, acks, 1, [])  # unsaved
    table.sweep(0, T0 + timedelta(seconds=30), force=True)  # 30 s later in event time, 16 bytes read
    assert acks.done == [0]
    clock.now_s += 10
    table.sweep(0, T0 + timedelta(seconds=30), force=True)  # and 10 s of wall time
    assert acks.done == [0, 1]


@dataclass
class Lines:
    """A detector whose state is a list of ~100-byte lines: large enough to be split in parts."""

    name: str = "lines"

    def initial(self) -> list[str]:
        return []

    def dump(self, state: list[str]) -> JsonData:
        return {"lines": [[i, line] for i, line in enumerate(state)]}

    def load(self, data: JsonData) -> list[str]:
        return [line for _, line in data["lines"]]


def lines(count: int, seed: int = 0) -> list[str]:
    return [f"{seed}-{i:07d}-" + hashlib.sha256(f"{seed}/{i}".encode()).hexdigest() * 2 for i in range(count)]


def save(table: StateTable, acks: Acks, offset: int, state: list[str]) -> None:
    """Apply one record of key ``k`` that sets its state to ``state``, and save it."""
    message = acks.message(offset)
    table.get("k")
    table.put("k", state, message, [], T0 + timedelta(seconds=offset), changed=True)
    table.sweep(0, T0 + timedelta(seconds=offset), "k", force=True)


def part_keys(store: Store) -> set[str]:
    return {k for k in store if part_owner(k) is not None}


def test_a_large_state_is_saved_in_bounded_parts_and_a_restarted_table_resumes_it() -> None:
    store = Store()
    table, acks = StateTable(store, Lines(), every_s=10), Acks()  # type: ignore[arg-type]
    save(table, acks, 0, lines(20_000))  # ~3 MB of JSON
    head = unpack_state(store["k"])
    assert acks.done == [0] and len(head["parts"]) > 4 and part_keys(store) == {f"k\x1f{p}" for p in head["parts"]}
    assert max(len(v) for _, _, v in store.changelog if v) <= MAX_VALUE_BYTES
    assert [k for _, k, _ in store.changelog][-1] == "k"  # the head goes after its parts
    after = StateTable(store, Lines(), every_s=10)  # type: ignore[arg-type]
    assert after.get("k") == lines(20_000) and after.seen("k", acks.message(0))


def test_parts_already_stored_are_not_written_again() -> None:
    store = Store()
    table, acks = StateTable(store, Lines(), every_s=10), Acks()  # type: ignore[arg-type]
    save(table, acks, 0, lines(20_000))
    first = len(store.changelog)
    save(table, acks, 1, [*lines(20_000), "one more line"])  # only the last part changes
    second = store.changelog[first:]
    assert len(second) == 3, [k for _, k, _ in second]  # the new last part, the head, a tombstone for the old
    assert second[-1][2] is None and second[-1][1] not in store  # the replaced part is deleted
    assert StateTable(store, Lines(), every_s=10).get("k")[-1] == "one more line"  # type: ignore[arg-type]


def test_orphans_of_an_interrupted_write_are_deleted_at_the_next_write() -> None:
    store = Store()
    table, acks = StateTable(store, Lines(), every_s=10), Acks()  # type: ignore[arg-type]
    save(table, acks, 0, lines(20_000))
    saved = dict(store)
    save(table, acks, 1, lines(20_000, seed=1))
    orphans = part_keys(store) - part_keys(Store.of(saved))
    crashed = Store.of({**saved, **{k: store[k] for k in orphans}})  # its parts were written, its head not
    restarted = StateTable(crashed, Lines(), every_s=10)  # type: ignore[arg-type]
    assert restarted.get("k") == lines(20_000)
    save(restarted, Acks(), 2, lines(20_000, seed=2))
    assert orphans and not orphans & set(crashed) and part_keys(crashed) == {
        f"k\x1f{p}" for p in unpack_state(crashed["k"])["parts"]}


def test_a_record_written_before_parts_existed_loads_and_a_shrunk_state_drops_its_parts() -> None:
    store = Store()
    store["k"] = legacy_value({"state": {"lines": [[0, "old"]]}, "offsets": {"in#0": 4}})  # an older worker's
    table, acks = StateTable(store, Lines(), every_s=10), Acks()  # type: ignore[arg-type]
    assert table.get("k") == ["old"] and table.seen("k", acks.message(4))
    save(table, acks, 5, lines(20_000))
    assert part_keys(store)
    save(table, acks, 6, ["small again"])
    assert not part_keys(store) and unpack_state(store["k"])["state"] == {"lines": [[0, "small again"]]}


def test_a_real_key_holding_the_separator_never_meets_a_part_key() -> None:
    store = Store()
    table, acks = StateTable(store, Lines(), every_s=10), Acks()  # type: ignore[arg-type]
    save(table, acks, 0, lines(20_000))
    digest = unpack_state(store["k"])["parts"][0]
    hostile = f"k\x1f{digest}"  # a job id that spells one of k's part keys
    message = acks.message(1)
    assert table.get(hostile) == []  # not k's part
    table.put(hostile, ["mine"], message, [], T0, changed=True)
    table.sweep(0, T0, hostile, force=True)
    assert StateTable(store, Lines(), every_s=10).get("k") == lines(20_000)  # type: ignore[arg-type]
