"""``faultline load``: a derived JSON-lines file into real chDB, idempotently, bad lines dead-lettered."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from analytics_small import small_history

from schemas import dead_letter, encode
from sinks.clickhouse.load import load_derived, load_main
from sinks.clickhouse.mapping import TABLES
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import connect

pytestmark = pytest.mark.integration

TELEMETRY = {"schema": "gpu_sample/v1", "event_id": "g1", "event_time": "2026-11-21T00:00:00.000Z",
             "cluster": "c1", "node_id": "n1", "gpus": []}
INVALID = {"schema": "ett_interval/v1", "event_id": "x", "event_time": "2026-11-21T00:00:00.000Z",
           "cluster": "c1", "job_id": "A", "attempt": -1, "kind": "productive"}


def _write(path: Path) -> int:
    """A replay-like file: the small history, its own dead letter, telemetry, and two bad lines."""
    history = small_history()
    letter = dead_letter(b"\xff", source_topic="telemetry.log", stage="decode", error="bad utf-8", offset=7,
                         event_time=history[0].event_time)
    lines = [encode(e) for e in history] + [encode(letter), json.dumps(TELEMETRY).encode(), b"",
                                               b"{not json", json.dumps(INVALID).encode()]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return len(history)


def _final_rows(dsn: str, database: str) -> dict[str, list[tuple[Any, ...]]]:
    store = connect(ClickHouseSettings(dsn=dsn, database=database, query_server=False))
    try:
        out = {}
        for spec in TABLES:
            cols, rows = store.query(f"SELECT * EXCEPT (`_inserted_at`) FROM `{database}`.`{spec.table}` FINAL")
            keep = [i for i, c in enumerate(cols) if c != "_version"]
            out[spec.table] = sorted(tuple(str(row[i]) for i in keep) for row in rows)
        return out
    finally:
        store.close()


def _drop(dsn: str, database: str) -> None:
    store = connect(ClickHouseSettings(dsn=dsn, database=database, query_server=False))
    store.command(f"DROP DATABASE IF EXISTS `{database}`")
    store.close()


def test_load_twice_gives_the_same_final_rows(tmp_path: Path, dsn: str, database: str) -> None:
    path = tmp_path / "derived.jsonl"
    derived = _write(path)
    first = load_derived(path, dsn, database)
    assert (first.lines, first.skipped, first.bad_lines, first.rejected) == (derived + 4, 1, 2, 0)
    assert first.loaded == derived + 1 + 2  # the file's dead letter and the two bad lines' dead letters
    assert first.by_table["ett_intervals"] == 21 and first.by_table["dead_letters"] == 3
    rows = _final_rows(dsn, database)
    second = load_derived(path, dsn, database)
    assert second.loaded == first.loaded
    assert _final_rows(dsn, database) == rows
    assert len(rows["ett_intervals"]) == 21 and len(rows["dead_letters"]) == 3
    assert {len(rows[t]) for t in ("decisions", "hang_verdicts", "faults", "incidents")} == {1, 2}
    _drop(dsn, database)


def test_load_main_reports_and_returns_status(tmp_path: Path, dsn: str, database: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "derived.jsonl"
    _write(path)
    assert load_main([str(path), "--dsn", dsn, "--database", database]) == 0
    out = capsys.readouterr().out
    assert "2 bad lines dead-lettered" in out and "ett_intervals 21" in out
    packed = tmp_path / "derived.jsonl.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert load_main([str(packed), "--dsn", dsn, "--database", database]) == 0
    assert "ett_intervals 21" in capsys.readouterr().out
    assert load_main([str(tmp_path / "missing.jsonl"), "--dsn", dsn]) == 2
    assert load_main([str(path), "--dsn", "chdb://relative/path"]) == 2
    _drop(dsn, database)
