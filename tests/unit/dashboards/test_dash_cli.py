"""Command lines of ``faultline report`` and ``faultline dashboards`` (no database, no Grafana)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dashboards import boards
from dashboards.cli import TOKEN_ENV, dashboards_main, report_main


def test_report_with_a_missing_derived_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = report_main(["--derived", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "r.html")], environ={})
    assert code == 2
    assert "no such file" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_dsn_and_derived_are_exclusive(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        report_main(["--dsn", "chdb:///x", "--derived", "d.jsonl"], environ={})
    assert exc.value.code == 2


def test_export_uses_the_server_dsn_from_the_environment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = dashboards_main(["export", str(tmp_path)], environ={"FAULTLINE_CLICKHOUSE_DSN": "http://u@ch.internal:8125/fl"})
    assert code == 0
    printed = capsys.readouterr().out.split()
    assert len(printed) == 2 + len(boards.ALL)
    board = json.loads((tmp_path / "dashboards" / "faultline" / f"{boards.FAULTS.uid}.json").read_text())
    assert "`fl`.faults" in board["panels"][0]["targets"][0]["rawSql"]
    assert "ch.internal" in (tmp_path / "datasources" / "faultline.yaml").read_text()


def test_export_with_an_embedded_dsn_falls_back_to_a_local_server(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert dashboards_main(["export", str(tmp_path), "--dsn", "chdb:///tmp/x"], environ={}) == 0
    assert "cannot query embedded chDB" in capsys.readouterr().err
    assert "host: localhost" in (tmp_path / "datasources" / "faultline.yaml").read_text()


def test_push_needs_a_token(capsys: pytest.CaptureFixture[str]) -> None:
    assert dashboards_main(["push", "--grafana-url", "http://127.0.0.1:9"], environ={}) == 2
    assert TOKEN_ENV in capsys.readouterr().err
