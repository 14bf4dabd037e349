"""Crash-and-restart: a real Kafka broker, the runner in a subprocess killed with SIGKILL
mid-way and restarted; every decision is applied exactly once.

The dry-run actuator journals each applied decision (fsynced); the journal is the side effect
whose multiplicity is checked, the ``actuations`` topic the reported outcome.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from actuator_kafka import journal, read_actuations
from confluent_kafka import Producer

from schemas import Decision, Guard, Reason, derived_id, encode
from schemas.settings import KafkaSettings

N = 30
pytestmark = pytest.mark.integration


def decision(i: int, expires_in_s: float = 3600, guard: Guard | None = None) -> Decision:
    now = datetime.now(UTC)
    did = derived_id("decision", f"job-{i % 7}", "replace_nodes", "crash-it", str(i))
    return Decision(event_id=did, event_time=now, cluster="c1", decision_id=did, job_id=f"job-{i % 7}",
                    attempt=0, issued_at=now, action="replace_nodes", nodes=(f"node{i:03d}",),
                    block_scope="cluster", reason=Reason(kind="explicit_fault", cause_ids=(str(i),)),
                    policy_rule="single_node_fault", expires_at=now + timedelta(seconds=expires_in_s),
                    guard=guard)


def publish(kafka: KafkaSettings, values: list[tuple[str, bytes]]) -> None:
    producer = Producer(kafka.confluent())
    for key, value in values:
        producer.produce(kafka.topic("decisions"), key=key.encode(), value=value)
    assert producer.flush(30) == 0


def start_runner(kafka: KafkaSettings, tmp: Path, delay_s: float) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "sinks.actuators.cli", "--actuator", "dry-run",
            "--bootstrap-servers", kafka.bootstrap_servers, "--namespace", kafka.namespace,
            "--group-id", f"{kafka.namespace}actuator", "--store", str(tmp / "applied.sqlite"),
            "--journal", str(tmp / "journal.jsonl"), "--delay-s", str(delay_s), "--idle-exit-s", "4", "--session-timeout-ms", "6000"]
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=open(tmp / "runner.log", "ab"))


def test_killed_runner_applies_every_decision_exactly_once(kafka: KafkaSettings, tmp_path: Path) -> None:
    decisions = [decision(i) for i in range(N)]
    expired = decision(100, expires_in_s=-1)
    refused = decision(101, guard=Guard(refused=True, rule="cluster_blast_radius", detail="limit 12"))
    values = [(d.job_id, encode(d)) for d in [*decisions, expired, refused]]
    publish(kafka, [*values, ("junk", b"not json"), values[0]])  # plus garbage and a redelivery

    first = start_runner(kafka, tmp_path, delay_s=0.2)
    deadline = time.monotonic() + 60
    while len(journal(tmp_path)) < 8 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(10)
    done_before_crash = len(journal(tmp_path))
    assert 8 <= done_before_crash < N, "the kill must land mid-way"

    second = start_runner(kafka, tmp_path, delay_s=0.0)
    assert second.wait(120) == 0, (tmp_path / "runner.log").read_text()[-3000:]

    applied_side_effects = Counter(journal(tmp_path))
    assert set(applied_side_effects) == {d.decision_id for d in decisions}
    assert max(applied_side_effects.values()) == 1, applied_side_effects.most_common(3)

    actuations = read_actuations(kafka, want=N + 3)
    by_status: dict[str, set[str]] = {}
    for a in actuations:
        by_status.setdefault(a.status, set()).add(a.decision_id)
    assert by_status["applied"] == {d.decision_id for d in decisions}
    assert len({a.event_id for a in actuations if a.status == "applied"}) == N
    assert by_status["refused"] == {expired.decision_id, refused.decision_id}
    assert decisions[0].decision_id in by_status.get("duplicate", set())
    assert not by_status.get("failed")
