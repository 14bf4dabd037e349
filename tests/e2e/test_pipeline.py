"""End to end: simulated fleet -> Kafka -> Faust worker -> ClickHouse sink (chDB) -> SQL rows."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from producers.kafka import EventProducer, send_paced
from producers.simulator import FleetConfig, simulate
from producers.simulator import scenarios as sc
from schemas.settings import KafkaSettings
from sinks.clickhouse.query import run_sql
from sinks.clickhouse.settings import ClickHouseSettings

pytestmark = pytest.mark.e2e
REPO = Path(__file__).resolve().parents[2]


def _sink(kafka: KafkaSettings, dsn: str, log: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "streams.cli", "sink", "--bootstrap", kafka.bootstrap_servers,
           "--namespace", kafka.namespace, "--dsn", dsn]
    return subprocess.Popen(cmd, cwd=REPO, stdout=open(log, "wb"), stderr=subprocess.STDOUT)


def _rows(ch: ClickHouseSettings, sql: str) -> list[Any]:
    try:
        return list(run_sql(ch, sql)[1])
    except Exception:  # noqa: BLE001 - tables appear once the sink has migrated; polled again
        return []


def _wait_rows(ch: ClickHouseSettings, sql: str, predicate: Any, timeout_s: float = 300) -> list[Any]:
    deadline = time.monotonic() + timeout_s
    rows: list[Any] = []
    while time.monotonic() < deadline:
        rows = _rows(ch, sql)
        if predicate(rows):
            return rows
        time.sleep(2)
    return rows


def test_simulated_faults_reach_clickhouse(kafka: KafkaSettings, worker: Any, tmp_path: Path) -> None:
    run = simulate(FleetConfig(nodes=4, jobs=2, duration_s=900, seed=5, cluster="e2e"),
                   [sc.Hang(job=0, at_s=300, source="single"), sc.Xid(node=3, gpu=2, xid=48, at_s=420)])
    dsn = f"chdb://{tmp_path / 'clickhouse'}"
    ch = ClickHouseSettings(dsn=dsn)
    sink = _sink(kafka, dsn, tmp_path / "sink.log")
    try:
        with EventProducer(kafka) as producer:  # 20x real time (see README: event time and replay)
            send_paced(producer, run.events, speed=20.0)
        hang = next(t for t in run.truth if t.kind == "hang")
        faults = _wait_rows(ch, "SELECT node_id, category, xid FROM faultline.faults FINAL",
                            lambda rows: any(r[1] == "gpu_memory_ecc" for r in rows))
        assert ("node-0004", "gpu_memory_ecc", 48) in [tuple(r) for r in faults], worker.tail()
        verdicts = _wait_rows(ch, "SELECT job_id, source_nodes FROM faultline.hang_verdicts FINAL",
                              lambda rows: len(rows) > 0)
        assert [(r[0], list(r[1])) for r in verdicts] == [(hang.job_id, list(hang.node_ids))], worker.tail()
        decisions = _wait_rows(ch, "SELECT job_id, action FROM faultline.decisions FINAL",
                               lambda rows: {"replace_nodes"} <= {r[1] for r in rows})
        assert (hang.job_id, "replace_nodes") in [tuple(r) for r in decisions]
        assert worker.alive()
    finally:
        sink.terminate()
        sink.wait(timeout=60)
    assert sink.returncode == 0, (tmp_path / "sink.log").read_text()
