"""No poison pills in the actuator: every hostile value on ``decisions`` is dead-lettered once,
the runner keeps going, and the good decision behind them is applied."""

from __future__ import annotations

from pathlib import Path

import pytest
from actuator_kafka import journal, read_actuations
from test_runner_crash_restart import decision, publish

from schemas import DeadLetter, decode, encode
from schemas.settings import KafkaSettings
from sinks.actuators.dryrun import DryRunActuator, DryRunSettings
from sinks.actuators.runner import ActuatorRunner
from tests.conftest import consume_topic
from tests.hostile import over_kafka

pytestmark = pytest.mark.integration


def test_hostile_decisions_are_dead_lettered_and_the_next_one_applied(kafka: KafkaSettings, tmp_path: Path) -> None:
    hostile = over_kafka()
    good = decision(1)
    publish(kafka, [*(("junk", value) for value in hostile), (good.job_id, encode(good))])
    runner = ActuatorRunner(kafka, DryRunActuator(DryRunSettings(journal_path=str(tmp_path / "journal.jsonl"))),
                            f"{kafka.namespace}actuator", tmp_path / "applied.sqlite")
    try:
        assert runner.run(idle_exit_s=4.0) == len(hostile) + 1
    finally:
        runner.close()
    assert journal(tmp_path) == [good.decision_id]
    assert [a.status for a in read_actuations(kafka, want=1)] == ["applied"]
    letters = [d for _, raw in consume_topic(kafka, "deadletter", until=len(hostile), timeout_s=60)
               if isinstance(d := decode(raw), DeadLetter)]
    assert len(letters) == len(hostile)
    assert len({d.event_id for d in letters}) == len(hostile)
