"""The whole chain: simulated fault -> Kafka -> Faust -> decision -> actuator -> actuation event."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from producers.kafka import EventProducer, send_paced
from producers.simulator import FleetConfig, simulate
from producers.simulator import scenarios as sc
from schemas import Actuation, Decision, decode
from schemas.settings import KafkaSettings
from sinks.actuators.dryrun import DryRunActuator, DryRunSettings
from sinks.actuators.runner import ActuatorRunner

pytestmark = pytest.mark.e2e


def test_an_xid_79_ends_in_an_applied_replace_nodes(kafka: KafkaSettings, worker: Any, consume: Any,
                                                     tmp_path: Path) -> None:
    # the fleet starts now, so its decisions are not expired by the time the actuator sees them
    start = datetime.now(UTC).replace(microsecond=0)
    run = simulate(FleetConfig(nodes=4, jobs=1, duration_s=420, seed=3, cluster="chain", start=start),
                   [sc.Xid(node=2, gpu=5, xid=79, at_s=300)])
    journal = tmp_path / "journal.jsonl"
    stop = threading.Event()

    def actuate() -> None:  # the runner's SQLite store belongs to the thread that opens it
        runner = ActuatorRunner(kafka, DryRunActuator(DryRunSettings(journal_path=str(journal))),
                                f"{kafka.namespace}actuator", tmp_path / "applied.sqlite")
        try:
            runner.run(stop=stop)
        finally:
            runner.close()

    thread = threading.Thread(target=actuate, daemon=True)
    thread.start()
    try:
        with EventProducer(kafka) as producer:
            send_paced(producer, run.events, speed=20.0)
        def replacement_applied(messages: list[tuple[str | None, bytes]]) -> bool:
            """The replacement is applied, and every journaled decision has its actuation."""
            done = [a for _, raw in messages if isinstance(a := decode(raw), Actuation) and a.status == "applied"]
            lines = journal.read_text().splitlines() if journal.exists() else []
            return any("replace_nodes" in a.detail for a in done) and len(lines) == len({a.decision_id for a in done})

        actuations = [a for _, raw in consume(kafka, "actuations", stop_when=replacement_applied, timeout_s=240)
                      if isinstance(a := decode(raw), Actuation)]
    finally:
        stop.set()
        thread.join(timeout=60)
    # the runner may apply one more decision between that condition and its stop: read its
    # actuation too (a journal line is written before its actuation is sent)
    journaled = [json.loads(line)["decision_id"] for line in journal.read_text().splitlines()]

    def every_journaled(messages: list[tuple[str | None, bytes]]) -> bool:
        return set(journaled) <= {a.decision_id for _, raw in messages
                                  if isinstance(a := decode(raw), Actuation) and a.status == "applied"}

    actuations = [a for _, raw in consume(kafka, "actuations", stop_when=every_journaled, timeout_s=60)
                  if isinstance(a := decode(raw), Actuation)]
    issued = {a.decision_id for a in actuations}

    def all_issued(messages: list[tuple[str | None, bytes]]) -> bool:
        return issued <= {d.decision_id for _, raw in messages if isinstance(d := decode(raw), Decision)}

    decisions = {d.decision_id: d for _, raw in consume(kafka, "decisions", stop_when=all_issued, timeout_s=60)
                 if isinstance(d := decode(raw), Decision)}
    replaced = [d for d in decisions.values() if d.action == "replace_nodes"]
    assert [(d.nodes, d.block_scope) for d in replaced] == [(("node-0003",), "cluster")], worker.tail()
    applied = {a.decision_id for a in actuations if a.status == "applied"}
    assert replaced[0].decision_id in applied, [(a.status, a.detail) for a in actuations]
    assert applied <= set(decisions), "an actuation for a decision that was never issued"
    assert sorted(journaled) == sorted(applied), "each applied decision is journaled exactly once"
