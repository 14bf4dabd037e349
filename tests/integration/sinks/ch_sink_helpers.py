"""Helpers shared by the ClickHouse sink's integration tests: real Kafka, real chDB.

Kept out of ``conftest.py`` under a unique module name so test modules can import them
without colliding with other packages' conftest modules.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from confluent_kafka import Consumer, Producer, TopicPartition

from schemas import (
    Actuation,
    Decision,
    EttInterval,
    Event,
    Fault,
    HangSignals,
    HangVerdict,
    HangVote,
    Localization,
    Reason,
    SlowNode,
    encode,
)
from schemas.registry import topic_for
from schemas.settings import KafkaSettings
from sinks.clickhouse.settings import RetryPolicy

T0 = datetime(2026, 11, 22, 8, 0, 0, 123000, tzinfo=UTC)
PARTITIONS = 2
FAST_RETRY = RetryPolicy(initial_s=0.05, max_s=0.2)


def random_name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:12]}"


def produce(kafka: KafkaSettings, events: Sequence[Event], raw: Sequence[tuple[str, bytes]] = ()) -> None:
    """Publish ``events`` to their registry topics and ``raw`` (logical topic, bytes) as-is."""
    producer = Producer(kafka.confluent())
    for event in events:
        spec = topic_for(event)
        producer.produce(kafka.topic(spec.name), key=spec.key_of(event), value=encode(event))
    for topic, value in raw:
        producer.produce(kafka.topic(topic), key=b"bad", value=value)
    assert producer.flush(30) == 0


def read_topic(kafka: KafkaSettings, topic: str, expect: int, timeout_s: float = 20.0) -> list[bytes]:
    """Up to ``expect`` message values from the beginning of ``topic``."""
    consumer = Consumer(kafka.confluent(**{"group.id": random_name("r"), "auto.offset.reset": "earliest"}))
    consumer.subscribe([kafka.topic(topic)])
    values: list[bytes] = []
    deadline = time.monotonic() + timeout_s
    while len(values) < expect and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None and msg.error() is None:
            values.append(msg.value() or b"")
    consumer.close()
    return values


def committed(kafka: KafkaSettings, group: str, topic: str) -> int:
    """Total committed offset of ``group`` over ``topic``'s partitions (0 when none)."""
    consumer = Consumer(kafka.confluent(**{"group.id": group}))
    parts = [TopicPartition(kafka.topic(topic), p) for p in range(PARTITIONS)]
    result = consumer.committed(parts, timeout=10)
    consumer.close()
    return sum(max(tp.offset, 0) for tp in result)


def every_kind(n: int = 1) -> list[Event]:
    """``n`` events of every derived kind except dead_letter, with distinct ids."""
    events: list[Event] = []
    for i in range(n):
        events += _one_of_each(f"{i}")
    return events


def _one_of_each(i: str) -> list[Event]:
    common: dict[str, Any] = dict(event_time=T0, cluster="c1")
    signals = HangSignals(log_silent=True, collective_stalled=True)
    return [
        Fault(event_id=f"f{i}", fault_id=f"f{i}", node_id=f"n{i}", category="gpu_xid", family="gpu",
              level="fault", blame="node", rule_id="xid79", evidence="Xid 79", first_seen=T0, count=1, **common),
        HangVote(event_id=f"hv{i}", job_id="j1", attempt=0, window_start=T0 - timedelta(seconds=10),
                 window_end=T0, signals=signals, votes=2, hang=True, **common),
        HangVerdict(event_id=f"v{i}", verdict_id=f"v{i}", job_id="j1", attempt=0, onset_time=T0,
                    detected_at=T0, signals=signals, source_ranks=(1,), source_nodes=("n1",),
                    localization=(Localization(method="collective_lag", ranks=(1,)),), confidence=0.8, **common),
        SlowNode(event_id=f"s{i}", outlier_id=f"s{i}", job_id="j1", node_id="n2", ranks=(4, 5), metric="compute_ms",
                 value=150.0, baseline=100.0, slowdown=1.5, score=6.0, windows=3, detected_at=T0, **common),
        Decision(event_id=f"d{i}", decision_id=f"d{i}", job_id="j1", attempt=0, issued_at=T0,
                 action="replace_nodes", nodes=("n1",), block_scope="task",
                 reason=Reason(kind="explicit_fault", category="gpu_xid", cause_ids=(f"f{i}",)),
                 policy_rule="explicit_node_fault", **common),
        Actuation(event_id=f"a{i}", decision_id=f"d{i}", actuator="dry-run", status="applied",
                  applied_at=T0, **common),
        EttInterval(event_id=f"e{i}", job_id="j1", attempt=0, kind="detection", start=T0,
                    end=T0 + timedelta(seconds=42), cause_id=f"v{i}", **common),
    ]
