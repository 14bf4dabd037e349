"""100,000 repeated Xid lines from one GPU within 100 s fold into one fault, through Kafka: its count is
reports, one a second at most (100), re-issued as it doubles and with the final count: 8 events in all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from producers.kafka import EventProducer
from schemas import Fault, LogLine, decode
from schemas.settings import KafkaSettings

pytestmark = pytest.mark.integration
T0 = datetime(2026, 11, 22, 6, tzinfo=UTC)
LINES = 100_000
REPORTS = 100
XID = "NVRM: Xid (PCI:0000:bd:00): 13, pid=88121, name=python3, Graphics SM Warp Exception on (GPC 2, TPC 1, SM 0): Out Of Range Address"


def _kernel(i: int, sec: float, line: str, node: str = "node-0031") -> LogLine:
    return LogLine(event_id=f"burst-{i}", event_time=T0 + timedelta(seconds=sec), cluster="c",
                   node_id=node, source="kernel", line=line)


def test_a_flood_of_one_xid_becomes_one_fault(kafka: KafkaSettings, worker: Any, consume: Any) -> None:
    with EventProducer(kafka) as producer:
        for i in range(LINES):  # 100,000 lines within 100 s of event time
            producer.send(_kernel(i, i / 1000, XID))
        # event time moves on (another node's benign line 5 minutes later): the burst's quiet window passes
        producer.send(_kernel(LINES, 400, "EXT4-fs (md0): re-mounted. Opts: (null)", node="node-0032"))
    def final_count_seen(messages: list[tuple[str | None, bytes]]) -> bool:
        return any(isinstance(f := decode(raw), Fault) and f.count == REPORTS for _, raw in messages)

    faults = [f for _, raw in consume(kafka, "faults.classified", stop_when=final_count_seen, timeout_s=420)
              if isinstance(f := decode(raw), Fault)]
    assert {f.fault_id for f in faults} and len({f.fault_id for f in faults}) == 1, worker.tail()
    assert max(f.count for f in faults) == REPORTS, worker.tail()
    # announced once at first sight, re-issued as the count doubles (2, 4, ..., 64) and with the final count
    assert sorted({f.count for f in faults}) == [1, *(2**k for k in range(1, 7)), REPORTS]
    assert len(faults) == 8  # each once: O(log n) events for 100,000 lines
    final = max(faults, key=lambda f: f.count)
    assert final.xid == 13 and final.node_id == "node-0031" and final.first_seen == T0
