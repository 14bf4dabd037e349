"""The sink against the real broker and real chDB: landing, dead letters, commit-after-flush."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from ch_sink_helpers import T0, committed, every_kind, produce, random_name, read_topic

from schemas import DeadLetter, Fault, GpuSample, decode, encode
from schemas.settings import KafkaSettings
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.sink import ClickHouseSink, SinkCounters
from sinks.clickhouse.store import Store, connect

KINDS = ("faults", "hang_votes", "hang_verdicts", "slow_nodes", "decisions", "actuations", "ett_intervals")


@pytest.fixture
def store(ch: ClickHouseSettings) -> Iterator[Store]:
    opened = connect(ch)
    opened.migrate()
    yield opened
    opened.command(f"DROP DATABASE IF EXISTS `{ch.database}`")
    opened.close()


def _count(store: Store, table: str, where: str = "1") -> int:
    _, rows = store.query(f"SELECT count() FROM `{store.database}`.`{table}` FINAL WHERE {where}")
    return int(rows[0][0])


def _wait(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.1)


def _start(sink: ClickHouseSink, stop: threading.Event) -> tuple[threading.Thread, list[SinkCounters]]:
    out: list[SinkCounters] = []
    thread = threading.Thread(target=lambda: out.append(sink.run(stop=stop)), daemon=True)
    thread.start()
    return thread, out


def test_every_kind_lands_and_bad_messages_are_dead_lettered(
    kafka: KafkaSettings, ch: ClickHouseSettings, store: Store
) -> None:
    good = every_kind(3)
    overflow = Fault.model_validate({**good[0].to_wire(), "event_id": "big", "fault_id": "big", "rank": 2**70})
    sample = GpuSample(event_id="g", event_time=T0, cluster="c1", node_id="n", gpus=())
    raw = [("decisions", b"not json"), ("faults.classified", b'{"schema": "fault/v1"}'),
           ("decisions", encode(sample))]
    produce(kafka, [*good, overflow], raw)
    flushes: list[SinkCounters] = []
    group = random_name("g")
    counters = ClickHouseSink(kafka, ch, group).run(idle_exit_s=2.0, progress=flushes.append)
    for table in KINDS:
        assert _count(store, table) == 3, table
    by_stage = "SELECT stage, count() FROM `{}`.dead_letters FINAL GROUP BY stage ORDER BY stage"
    _, stages = store.query(by_stage.format(ch.database))
    assert stages == [("decode", 1), ("sink", 1), ("validate", 2)]
    letters = [decode(v) for v in read_topic(kafka, "deadletter", expect=4)]
    assert sorted(d.stage for d in letters if isinstance(d, DeadLetter)) == ["decode", "sink", "validate", "validate"]
    assert counters.consumed >= 25 and counters.inserted >= 21 and counters.dead_lettered >= 4
    assert flushes and flushes[-1].flushes == len(flushes)
    assert committed(kafka, group, "decisions") == 5  # 3 decisions, 2 bad messages, all committed


def test_offsets_commit_only_after_the_flush_landed(
    kafka: KafkaSettings, ch: ClickHouseSettings, store: Store
) -> None:
    slow = ch.model_copy(update={"flush_interval_s": 600.0, "batch_size": 10_000})
    events = every_kind(2)
    produce(kafka, events)
    group, stop = random_name("g"), threading.Event()
    sink = ClickHouseSink(kafka, slow, group)
    thread, out = _start(sink, stop)
    _wait(lambda: sink.counters.consumed == len(events))
    assert committed(kafka, group, "decisions") == 0 and _count(store, "decisions") == 0
    stop.set()
    thread.join(30)
    assert out[0].flushes == 1 and out[0].inserted == len(events)
    assert committed(kafka, group, "decisions") == 2 and _count(store, "decisions") == 2


def test_uncommitted_batch_is_reread_after_a_stop_and_duplicates_collapse(
    kafka: KafkaSettings, ch: ClickHouseSettings, store: Store
) -> None:
    store.command(f"DETACH TABLE `{ch.database}`.decisions")  # inserts now fail transiently
    events = every_kind(2)
    produce(kafka, events)
    group, stop = random_name("g"), threading.Event()
    sink = ClickHouseSink(kafka, ch, group)
    thread, out = _start(sink, stop)
    _wait(lambda: sink.counters.retries >= 3)
    stop.set()
    thread.join(30)
    assert committed(kafka, group, "decisions") == 0
    assert out[0].dead_lettered == 0
    store.command(f"ATTACH TABLE `{ch.database}`.decisions")
    produce(kafka, events)  # a replay: same ids again
    again = ClickHouseSink(kafka, ch, group).run(idle_exit_s=2.0)
    assert again.consumed >= 4
    assert committed(kafka, group, "decisions") == 4
    assert _count(store, "decisions") == 2 and _count(store, "faults") == 2


def test_a_rebalance_flushes_and_commits_before_partitions_move(
    kafka: KafkaSettings, ch: ClickHouseSettings, store: Store
) -> None:
    slow = ch.model_copy(update={"flush_interval_s": 600.0, "batch_size": 10_000})
    events = every_kind(2)
    produce(kafka, events)
    group, stop = random_name("g"), threading.Event()
    first = ClickHouseSink(kafka, slow, group)
    threads = [_start(first, stop)[0]]
    _wait(lambda: first.counters.consumed == len(events))
    assert _count(store, "decisions") == 0
    threads.append(_start(ClickHouseSink(kafka, slow, group), stop)[0])  # joining revokes first's partitions
    _wait(lambda: first.counters.flushes >= 1)
    assert first.counters.commits >= 1 and first.counters.inserted == len(events)
    assert committed(kafka, group, "decisions") == 2 and _count(store, "decisions") == 2
    stop.set()
    for thread in threads:
        thread.join(30)


def test_a_backlog_lands_in_few_large_flushes_with_its_time_accounted(
    kafka: KafkaSettings, ch: ClickHouseSettings, store: Store
) -> None:
    """The fast path (default batch bounds, column-oriented inserts) keeps every row and commits it all."""
    large = ch.model_copy(update={"batch_size": 20_000, "flush_interval_s": 1.0})
    events = every_kind(400)
    produce(kafka, events)
    group = random_name("g")
    counters = ClickHouseSink(kafka, large, group).run(idle_exit_s=2.0)
    assert counters.inserted == counters.consumed == len(events)
    assert counters.flushes < len(events) / 50  # large batches, not one insert per poll
    for table in KINDS:
        assert _count(store, table) == 400, table
    assert committed(kafka, group, "decisions") == 400
    assert counters.decode_s > 0 and counters.insert_s > 0 and counters.commit_s > 0
