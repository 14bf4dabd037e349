"""Simulated fault -> policy + guards -> Kafka ``decisions`` -> ActuatorRunner -> ``actuations``.

The Faust agent that runs the policy in the streaming pipeline is wired elsewhere; this test
runs the same pure policy with ``decide_all`` and everything after it for real.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from actuator_kafka import journal, read_actuations
from confluent_kafka import Producer

from schemas import Decision, Event, Fault, JobEvent, Placement, StepProgress, derived_id, encode
from schemas.settings import KafkaSettings
from sinks.actuators.dryrun import DryRunActuator, DryRunSettings
from sinks.actuators.runner import ActuatorRunner
from streams.decide import GuardSettings
from tests.unit.decide.decide_chain import decide_all

pytestmark = pytest.mark.integration


def simulated_fault_events(now: datetime) -> list[Event]:
    t0 = now - timedelta(minutes=5)
    placement = tuple(Placement(rank=i, node_id=f"gpu{i:02d}") for i in range(4))
    events: list[Event] = [JobEvent(event_id="s", event_time=t0, cluster="c1", job_id="llm-1", attempt=0,
                       kind="scheduled", placement=placement),
              JobEvent(event_id="r", event_time=t0 + timedelta(seconds=5), cluster="c1", job_id="llm-1",
                       attempt=0, kind="running")]
    events += [StepProgress(event_id=f"p{i}", event_time=t0 + timedelta(seconds=10 * i), cluster="c1",
                            job_id="llm-1", node_id="gpu00", rank=0, step=i, step_time_ms=10_000)
               for i in range(1, 12)]
    at = t0 + timedelta(seconds=115)
    fid = derived_id("fault", "gpu02", "pcie_aer", at)
    events.append(Fault(event_id=fid, event_time=at, cluster="c1", fault_id=fid, node_id="gpu02", job_id=None,
                        category="pcie_aer", family="host_hw", level="error", blame="node", rule_id="host.pcie_aer",
                        evidence="pcieport 0000:3a:00.0: AER: Uncorrected (Non-Fatal) error received: 0000:3b:00.0",
                        first_seen=at, count=1))
    return events


def test_fault_to_decisions_to_actuations(kafka: KafkaSettings, tmp_path: Path) -> None:
    decisions = decide_all(simulated_fault_events(datetime.now(UTC)), guards=GuardSettings(cluster_size=100))
    assert [(d.action, d.nodes) for d in decisions] == [
        ("checkpoint_now", ()), ("replace_nodes", ("gpu02",)), ("drain_reboot_nodes", ("gpu02",))]

    producer = Producer(kafka.confluent())
    for d in decisions:
        producer.produce(kafka.topic("decisions"), key=d.job_id.encode(), value=encode(d))
    assert producer.flush(30) == 0

    act = DryRunActuator(DryRunSettings(journal_path=str(tmp_path / "journal.jsonl")))
    runner = ActuatorRunner(kafka, act, f"{kafka.namespace}g", tmp_path / "applied.sqlite",
                            session_timeout_ms=6000)
    assert runner.run(idle_exit_s=2) == 3
    runner.close()

    assert journal(tmp_path) == [d.decision_id for d in decisions]  # one partition per job: in order
    actuations = read_actuations(kafka, want=3)
    assert {(a.decision_id, a.status, a.actuator) for a in actuations} == {
        (d.decision_id, "applied", "dry-run") for d in decisions}
    assert all(isinstance(d, Decision) for d in decisions)
