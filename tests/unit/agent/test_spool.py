"""The on-disk spool: order, persistence across reopen, torn writes, the size bound."""

from __future__ import annotations

from pathlib import Path

import pytest

from producers.agent.metrics import AgentMetrics
from producers.agent.settings import FsyncPolicy
from producers.agent.spool import Spool


def _spool(path: Path, fsync: FsyncPolicy = "interval", **extra: int) -> Spool:
    return Spool(path, AgentMetrics(), fsync=fsync, **extra)


def _records(start: int, count: int) -> list[tuple[str, str | None, bytes]]:
    return [("t.gpu", f"n{i % 3}" if i % 4 else None, b'{"i":%d,"s":"tab\\tnl\\n"}' % i) for i in range(start, start + count)]


@pytest.mark.parametrize("fsync", ["always", "interval", "never"])
def test_records_come_back_in_order_once(tmp_path: Path, fsync: FsyncPolicy) -> None:
    spool = _spool(tmp_path, fsync, segment_bytes=300, max_bytes=1 << 20)
    spool.append(_records(0, 10))
    spool.append(_records(10, 15))
    first = spool.read(12)
    rest = spool.read(100)
    assert [r.seq for r in first + rest] == list(range(25))
    assert [(r.topic, r.key, r.value) for r in first + rest] == _records(0, 25)
    assert spool.read(10) == [] and spool.depth() == 25
    assert len(list(tmp_path.glob("seg-*.log"))) > 1
    spool.ack(24)
    assert spool.depth() == 0 and len(list(tmp_path.glob("seg-*.log"))) == 1


def test_unacknowledged_records_survive_a_reopen(tmp_path: Path) -> None:
    spool = _spool(tmp_path, segment_bytes=300)
    spool.append(_records(0, 20))
    spool.read(20)
    spool.ack(6)
    spool.close()
    again = _spool(tmp_path, segment_bytes=300)
    assert again.depth() == 13
    assert [r.seq for r in again.read(100)] == list(range(7, 20))
    again.append(_records(20, 2))
    assert [r.value for r in again.read(100)] == [v for _, _, v in _records(20, 2)]


def test_a_torn_last_record_is_cut_on_open(tmp_path: Path) -> None:
    spool = _spool(tmp_path)
    spool.append(_records(0, 3))
    spool.close()
    (segment,) = tmp_path.glob("seg-*.log")
    with open(segment, "ab") as handle:
        handle.write(b'["t.gpu", null]\t{"half')
    again = _spool(tmp_path)
    assert [r.seq for r in again.read(10)] == [0, 1, 2]
    again.append(_records(3, 1))
    assert [r.seq for r in again.read(10)] == [3]


def test_the_bound_drops_the_oldest_unsent_records_and_counts_them(tmp_path: Path) -> None:
    metrics = AgentMetrics()
    spool = Spool(tmp_path, metrics, max_bytes=4096, segment_bytes=1024, fsync="never")
    for start in range(0, 400, 10):
        spool.append(_records(start, 10))
    on_disk = sum(p.stat().st_size for p in tmp_path.glob("seg-*.log"))
    assert on_disk <= 4096 + 1024
    dropped = metrics.value("faultline_agent_spool_dropped_total")
    assert dropped > 0 and spool.depth() == 400 - dropped
    kept = spool.read(1000)
    assert [r.seq for r in kept] == list(range(int(dropped), 400))  # the newest, still in order
