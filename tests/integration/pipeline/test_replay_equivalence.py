"""The streaming path and ``faultline replay`` derive the same events from the same input."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from producers.kafka import EventProducer
from producers.simulator import FleetConfig, simulate
from producers.simulator import scenarios as sc
from schemas import Decision, Event, Fault, HangVerdict, SlowNode, decode
from schemas.settings import KafkaSettings
from streams.replay import replay

pytestmark = pytest.mark.integration
COMPARED = {"faults.classified": Fault, "hangs.verdicts": HangVerdict, "nodes.outliers": SlowNode,
            "decisions": Decision}


def _final(events: list[Event]) -> dict[str, str]:
    """Derived id -> wire form of its last version (a burst's final count wins)."""
    out: dict[str, Any] = {}
    for event in events:
        if isinstance(event, Fault) and event.event_id in out and out[event.event_id].count >= event.count:
            continue
        out[event.event_id] = event
    return {k: v.model_dump_json(by_alias=True) for k, v in out.items()}


def test_streaming_and_replay_agree(kafka: KafkaSettings, worker: Any, consume: Any, tmp_path: Path) -> None:
    run = simulate(FleetConfig(nodes=6, jobs=2, nodes_per_job=3, duration_s=1200, seed=21, cluster="eq"),
                   [sc.Hang(job=0, at_s=500, source="single"),
                    sc.SlowNode(job=1, node=1, at_s=300, slowdown=1.3),
                    sc.Xid(node=5, gpu=4, xid=13, at_s=200, repeats=50, interval_s=0.5),
                    sc.Xid(node=4, gpu=1, xid=63, at_s=250)])
    path = tmp_path / "events.jsonl"
    run.write_jsonl(path)
    out = io.BytesIO()
    replay(path, out)
    replayed = [e for e in map(decode, out.getvalue().splitlines()) if isinstance(e, tuple(COMPARED.values()))]

    with EventProducer(kafka) as producer:
        producer.send_all(run.events)
    streamed: list[Event] = []
    for topic in COMPARED:
        streamed += [e for _, raw in consume(kafka, topic, idle_s=20, timeout_s=300) if isinstance(e := decode(raw), Event)]

    expected, got = _final(replayed), _final(streamed)
    assert {type(decode(v)).__name__ for v in expected.values()} >= {"Fault", "HangVerdict", "SlowNode", "Decision"}
    assert got == expected, worker.tail()
