"""Helpers shared by the actuator integration tests (journal and actuations readers)."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

from confluent_kafka import Consumer

from schemas import Actuation, decode
from schemas.settings import KafkaSettings


def journal(tmp: Path) -> list[str]:
    path = tmp / "journal.jsonl"
    if not path.exists():
        return []
    return [json.loads(line)["decision_id"] for line in path.read_text().splitlines() if line.strip()]


def read_actuations(kafka: KafkaSettings, want: int, timeout_s: float = 30) -> list[Actuation]:
    """Every actuation on the topic: reads until at least ``want`` arrived and then nothing
    more for 2 s (redeliveries add ``duplicate`` reports beyond ``want``)."""
    consumer = Consumer(kafka.confluent(**{"group.id": f"reader-{uuid.uuid4().hex}",
                                           "auto.offset.reset": "earliest"}))
    consumer.subscribe([kafka.topic("actuations")])
    out: list[Actuation] = []
    deadline, quiet_since = time.monotonic() + timeout_s, time.monotonic()
    while time.monotonic() < deadline:
        msg = consumer.poll(0.3)
        if msg is not None and not msg.error():
            event = decode(msg.value() or b"")
            assert isinstance(event, Actuation), event
            out.append(event)
            quiet_since = time.monotonic()
        elif len(out) >= want and time.monotonic() - quiet_since > 2.0:
            break
    consumer.close()
    return out
