"""The streaming path and ``faultline replay`` derive the same events from the same input."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from producers.kafka import EventProducer, send_paced
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


def _fleet(nodes: int = 17, duration_s: float = 450) -> Any:
    """Two 8-node jobs and one idle node (index 16) whose GPU floods Xid 13."""
    return simulate(FleetConfig(nodes=nodes, jobs=2, nodes_per_job=8, duration_s=duration_s, seed=21, cluster="eq"),
                    [sc.Hang(job=0, at_s=330, source="single"),
                     sc.SlowNode(job=1, node=1, at_s=200, slowdown=1.3),
                     sc.Xid(node=16, gpu=4, xid=13, at_s=100, repeats=50, interval_s=0.5),
                     sc.Xid(node=4, gpu=1, xid=63, at_s=150)])


def _streamed_equals_replayed(kafka: KafkaSettings, consume: Any, run: Any, tmp_path: Path, tail: Any,
                              speed: float = 5.0) -> None:
    path = tmp_path / "events.jsonl"
    run.write_jsonl(path)
    out = io.BytesIO()
    replay(path, out)
    replayed = [e for e in map(decode, out.getvalue().splitlines()) if isinstance(e, tuple(COMPARED.values()))]

    with EventProducer(kafka) as producer:  # 5x real time: the fleet's own pace, compressed
        send_paced(producer, run.events, speed=speed)
    expected = _final(replayed)
    streamed: list[Event] = []
    for topic, kind in COMPARED.items():
        wanted = {k: v for k, v in expected.items() if isinstance(decode(v), kind)}

        def complete(messages: list[tuple[str | None, bytes]], wanted: dict[str, str] = wanted) -> bool:
            seen = _final([e for _, raw in messages if isinstance(e := decode(raw), Event)])
            return all(seen.get(k) == v for k, v in wanted.items())

        streamed += [e for _, raw in consume(kafka, topic, stop_when=complete, timeout_s=150)
                     if isinstance(e := decode(raw), Event)]
    got = _final(streamed)
    assert {type(decode(v)).__name__ for v in expected.values()} >= {"Fault", "HangVerdict", "SlowNode", "Decision"}
    assert got == expected, tail()


def test_two_workers_in_one_group_derive_what_replay_derives(kafka: KafkaSettings, worker: Any, consume: Any,
                                                             tmp_path: Path) -> None:
    """Streaming equals replay, scaled out: the partitions are shared by two workers of one group
    while the fleet streams at 10x real time (the fastest live pace the input aligner is built
    for: 3 s of idle wall time is 30 s of event time). Placements are co-partitioned with the
    telemetry that needs them, and each re-keying hop's records reach the other worker within
    that wait. (One worker alone: the chaos subset's sink-kill test compares replay's ids too,
    and ``make chaos`` runs baseline and backlog.)"""
    from tests.conftest import WorkerProcess

    second = WorkerProcess(kafka, tmp_path / "worker2.log", app_id=worker.app_id)
    try:
        second.wait_ready()
        _streamed_equals_replayed(kafka, consume, _fleet(), tmp_path, lambda: worker.tail() + second.tail(),
                                  speed=10.0)
        assert second.alive() and worker.alive()
    finally:
        second.stop()
