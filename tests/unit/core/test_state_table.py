"""StateTable: a key's state and the input offsets it reflects are saved as one record.

The table here is a plain dict (what StateTable uses of a Faust table: ``get`` and item
assignment); deliveries are real asyncio futures resolved by the test, as the producer would.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from streams.core.detector import JsonData
from streams.shell import Delivery, Message, StateTable, unpack_state

T0 = datetime(2026, 11, 23, 12, tzinfo=UTC)


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
        self.changelog: list[tuple[int, str, str]] = []

    def send_changelog(self, partition: int, key: str, value: str) -> None:
        self.changelog.append((partition, key, value))


@dataclass
class Acks:
    done: list[int] = field(default_factory=list)

    def message(self, offset: int, partition: int = 0) -> Message:
        return Message("in", partition, offset, "k", b"", ack=lambda: self.done.append(offset))


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
