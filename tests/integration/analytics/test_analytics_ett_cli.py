"""``faultline ett report`` and ``ett model --from-dsn`` on real chDB with the hand-checked history."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from analytics_small import small_history

from sinks.clickhouse.ett_cli import ett_main
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import connect

pytestmark = pytest.mark.integration


@pytest.fixture
def loaded(dsn: str, database: str) -> Iterator[list[str]]:
    """The DSN flags of a database holding the small history (the store is closed again)."""
    store = connect(ClickHouseSettings(dsn=dsn, database=database, query_server=False))
    store.migrate()
    store.insert(small_history())
    store.close()
    yield ["--database", database]
    store = connect(ClickHouseSettings(dsn=dsn, database=database, query_server=False))
    store.command(f"DROP DATABASE IF EXISTS `{database}`")
    store.close()


def test_report_prints_clusters_fleet_and_top_jobs(dsn: str, loaded: list[str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert ett_main(["report", "--dsn", dsn, *loaded, "--top", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    clusters = [dict(zip(out["clusters"]["columns"], r, strict=True)) for r in out["clusters"]["rows"]]
    assert [c["cluster"] for c in clusters] == ["c1", "c2", "*"]
    fleet = clusters[-1]
    assert (fleet["jobs"], fleet["interruptions"]) == (2, 3)
    assert fleet["ett_wall"] == pytest.approx((3.5 + 4.75) / (6.5 + 8 + 5 / 60))
    assert [r[0] for r in out["jobs"]["rows"]] == ["B"]
    assert ett_main(["report", "--dsn", dsn, *loaded]) == 0
    text = capsys.readouterr().out
    assert "mtbf_h" in text and "lost_gpu_h" in text and "(3 rows)" in text


def test_model_fits_rate_and_overhead_from_history(dsn: str, loaded: list[str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["model", "--nodes", "64", "--checkpoint-interval-min", "30", "--from-dsn", dsn, *loaded, "--json"]
    assert ett_main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    node_days = (44 + (8 + 5 / 60 - 0.5) * 16) / 8 / 24
    assert out["fitted"]["failures_per_node_day"] == pytest.approx(2 / node_days)
    assert out["fitted"]["restart_overhead_min"] == pytest.approx(40.0)
    assert out["mttf_h"] == pytest.approx(24 / (64 * 2 / node_days))
    assert ett_main([*argv, "--restart-overhead-min", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["params"]["restart_overhead_min"] == 2.0


def test_model_without_history_fails_cleanly(dsn: str, database: str, capsys: pytest.CaptureFixture[str]) -> None:
    store = connect(ClickHouseSettings(dsn=dsn, database=database, query_server=False))
    store.migrate()
    store.close()
    argv = ["model", "--nodes", "8", "--checkpoint-interval-min", "30", "--from-dsn", dsn, "--database", database]
    assert ett_main(argv) == 1
    assert "nothing to fit" in capsys.readouterr().err
