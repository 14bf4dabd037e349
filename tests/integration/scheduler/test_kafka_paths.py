"""Hooks, `faultline jobs emit` and `faultline fr import` through a real broker (EventProducer)."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from producers import hooks
from producers.hooks.cli import fr_main
from producers.scheduler.cli import jobs_main
from schemas import CollectiveProgress, JobEvent, StepProgress, decode
from schemas.settings import KafkaSettings

pytestmark = pytest.mark.integration

Consume = Callable[..., list[tuple[str | None, bytes]]]


def test_training_hooks_reach_their_topics(kafka: KafkaSettings, consume: Consume) -> None:
    hooks.init(hooks.HookSettings(job_id="job-h", node_id="node001", rank=0, cluster="it"), kafka=kafka)
    hooks.running(0)
    for step in range(5):
        with hooks.timer(step):
            pass
    with hooks.checkpoint(4):
        pass
    counters = hooks.counters()
    hooks.shutdown()
    progress = [decode(v) for _, v in consume(kafka, "jobs.progress", until=5)]
    lifecycle = [decode(v) for k, v in consume(kafka, "jobs.lifecycle", until=3) if k == "job-h"]
    assert [e.step for e in progress if isinstance(e, StepProgress)] == [0, 1, 2, 3, 4]
    assert [e.kind for e in lifecycle if isinstance(e, JobEvent)] == [
        "running", "checkpoint_started", "checkpoint_completed"]
    assert counters["dropped_full"] == 0 and counters["submitted"] == 8


def test_jobs_emit_and_fr_import_produce_to_kafka(kafka: KafkaSettings, consume: Consume, tmp_path: Path) -> None:
    flags = ["--bootstrap", kafka.bootstrap_servers, "--namespace", kafka.namespace]
    assert jobs_main(["emit", "--job-id", "77", "--kind", "scheduled", "--nodes", "node[001-002]", *flags], env={}) == 0
    entries: list[dict[str, Any]] = [
        {"pg_id": 0, "process_group": ("0", "default_pg"), "collective_seq_id": seq, "p2p_seq_id": 0,
         "profiling_name": "nccl:all_reduce", "time_created_ns": 1_795_000_000_000_000_000 + seq,
         "state": "completed" if seq < 3 else "scheduled", "is_p2p": False} for seq in (1, 2, 3)]
    (tmp_path / "nccl_trace_rank_0").write_bytes(pickle.dumps({"version": "2.5", "entries": entries}))
    assert fr_main(["import", str(tmp_path), "--job-id", "77", "--node", "0=node001", *flags], env={}) == 0
    [(key, value)] = consume(kafka, "jobs.lifecycle", until=1)
    job_event = decode(value)
    assert key == "77" and isinstance(job_event, JobEvent) and len(job_event.placement) == 2
    [(key, value)] = consume(kafka, "telemetry.collective", until=1)
    snapshot = decode(value)
    assert key == "77" and isinstance(snapshot, CollectiveProgress)
    assert (snapshot.last_enqueued_seq, snapshot.last_completed_seq, snapshot.in_flight_op) == (3, 2, "allreduce")
