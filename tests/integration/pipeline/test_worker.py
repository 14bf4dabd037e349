"""The Faust worker against a real broker: classification, dead letters, resilience."""

from __future__ import annotations

import base64
import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from producers.kafka import EventProducer
from schemas import DeadLetter, Fault, LogLine, decode
from schemas.settings import KafkaSettings

pytestmark = pytest.mark.integration
T0 = datetime(2026, 11, 22, 8, tzinfo=UTC)
XID79 = "NVRM: Xid (PCI:0000:3b:00): 79, pid=2231, name=python, GPU has fallen off the bus."


def _kernel(sec: float, line: str, node: str = "node-0007") -> LogLine:
    return LogLine(event_id=uuid.uuid4().hex, event_time=T0 + timedelta(seconds=sec), cluster="c1",
                   node_id=node, source="kernel", line=line)


def _decoded(pairs: list[tuple[str | None, bytes]]) -> list[Any]:
    return [decode(value) for _, value in pairs]


def test_worker_classifies_kernel_lines_into_faults(kafka: KafkaSettings, worker: Any, consume: Any) -> None:
    with EventProducer(kafka) as producer:
        producer.send(_kernel(0, "EXT4-fs (nvme0n1p1): mounted filesystem with ordered data mode."))
        producer.send(_kernel(1, XID79))
    faults = [f for f in _decoded(consume(kafka, "faults.classified", until=1)) if isinstance(f, Fault)]
    assert len(faults) == 1, worker.tail()
    fault = faults[0]
    assert fault.category == "gpu_fallen_off_bus" and fault.xid == 79 and fault.node_id == "node-0007"
    assert fault.level == "fault" and fault.blame == "node" and fault.count == 1


@pytest.mark.parametrize("topic", ["telemetry.log", "telemetry.kernel", "telemetry.gpu", "jobs.lifecycle"])
def test_malformed_messages_are_dead_lettered_and_the_worker_keeps_running(
        kafka: KafkaSettings, worker: Any, consume: Any, topic: str) -> None:
    bad = [b"\x00\xffnot json", b'{"schema": "log_line/v1", "event_id": "x"}', b'["a"]']
    with EventProducer(kafka) as producer:
        for raw in bad:
            producer.send_raw(kafka.topic(topic), raw, key="k")
        producer.send(_kernel(5, XID79, node="node-0042"))
    letters = [d for d in _decoded(consume(kafka, "deadletter", until=len(bad))) if isinstance(d, DeadLetter)]
    assert sorted(base64.b64decode(d.raw) for d in letters) == sorted(bad), worker.tail()
    assert {d.source_topic for d in letters} == {kafka.topic(topic)}
    assert all(d.offset >= 0 and d.partition >= 0 and d.error for d in letters)
    assert {d.stage for d in letters} <= {"decode", "validate"}
    faults = [f for f in _decoded(consume(kafka, "faults.classified", until=1)) if isinstance(f, Fault)]
    assert faults and faults[0].node_id == "node-0042", "the worker stopped after bad input"
    assert worker.alive()


def test_stats_survive_bad_json_values_in_nested_fields(kafka: KafkaSettings, worker: Any, consume: Any) -> None:
    line = json.loads(_kernel(0, XID79).model_dump_json(by_alias=True))
    line["rank"] = -4  # violates rank >= 0
    with EventProducer(kafka) as producer:
        producer.send_raw(kafka.topic("telemetry.kernel"), json.dumps(line).encode(), key="node-0007")
    letters = [d for d in _decoded(consume(kafka, "deadletter", until=1)) if isinstance(d, DeadLetter)]
    assert letters and letters[0].stage == "validate" and "rank" in letters[0].error
