"""Every analytics view and saved query on real chDB, against the hand-checked history of analytics_small."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from analytics_small import small_history, split_on_grid

from sinks.clickhouse import analytics
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import Store, connect

pytestmark = pytest.mark.integration

COLUMNS: dict[str, dict[str, str]] = {
    "ett_job": {"job_id": "String", "cluster": "String", "attempts": "Int64", "gpus": "Int64",
                "lifetime_h": "Float64", "productive_h": "Float64", "queue_h": "Float64",
                "ett_wall": "Nullable(Float64)", "ett_alloc": "Nullable(Float64)", "alloc_gpu_h": "Float64",
                "lost_gpu_h": "Float64", "interruptions": "UInt64", "mtbf_h": "Nullable(Float64)"},
    "ett_cluster": {"cluster": "String", "jobs": "UInt64", "lifetime_h": "Float64",
                    "ett_wall": "Nullable(Float64)", "ett_alloc": "Nullable(Float64)", "ett_gpu": "Nullable(Float64)",
                    "lost_gpu_h": "Float64", "interruptions": "UInt64", "mtbf_h": "Nullable(Float64)"},
    "ett_daily": {"day": "Date", "cluster": "String", "jobs": "UInt64", "lifetime_h": "Float64",
                  "productive_h": "Float64", "ett_wall": "Nullable(Float64)", "lost_gpu_h": "Float64",
                  "interruptions": "UInt64"},
    "ett_invalid_by_kind": {"cluster": "String", "kind": "String",
                            "intervals": "UInt64", "hours": "Float64", "queue_h": "Float64", "gpu_hours": "Float64",
                            "share_of_lifetime": "Nullable(Float64)"},
    "ett_invalid_by_cause": {"cluster": "String", "cause_source": "String", "category": "String",
                             "intervals": "UInt64", "interruptions": "UInt64", "hours": "Float64",
                             "gpu_hours": "Float64"},
    "ett_interruptions": {"job_id": "String", "attempt": "Int64", "cluster": "String",
                          "cause_source": "String", "category": "String", "nodes": "Array(String)",
                          "node_blamed": "UInt8", "detection_h": "Float64", "restart_h": "Float64",
                          "overhead_h": "Float64", "recompute_h": "Float64", "lost_gpu_h": "Float64"},
    "ett_attempt_outcomes": {"job_id": "String", "attempt": "Int64", "interrupted": "UInt8", "lifetime_h": "Float64",
                             "alloc_gpu_h": "Float64", "node_blamed": "UInt8", "overhead_h": "Float64"},
    "ett_node_failures": {"cluster": "String", "node_id": "String", "failures": "UInt64",
                          "jobs": "UInt64", "lost_gpu_h": "Float64", "categories": "Array(String)"},
    "ett_node_failures_daily": {"day": "Date", "node_id": "String", "failures": "UInt64", "lost_gpu_h": "Float64"},
    "ett_detection_latency": {"cluster": "String", "source": "String", "n": "UInt64", "mean_s": "Float64",
                              "p50_s": "Float64", "p90_s": "Float64", "p99_s": "Float64", "max_s": "Float64"},
    "ett_detection_latency_hist": {"cluster": "String", "source": "String", "le_s": "Float64", "n": "UInt64"},
}


@pytest.fixture(scope="module")
def store(analytics_chdb: Path) -> Iterator[Store]:
    """One migrated database with the small history for the whole module (the tests only read)."""
    database = f"v_{uuid.uuid4().hex[:12]}"
    opened = connect(ClickHouseSettings(dsn=f"chdb://{analytics_chdb}", database=database, query_server=False))
    opened.migrate()
    opened.insert(small_history())
    yield opened
    opened.command(f"DROP DATABASE IF EXISTS `{database}`")
    opened.close()


def _rows(store: Store, sql: str) -> list[dict[str, Any]]:
    cols, rows = store.query(sql)
    return [dict(zip(cols, row, strict=True)) for row in rows]


def _view(store: Store, name: str, order: str) -> list[dict[str, Any]]:
    return _rows(store, f"{analytics.view_sql(store.database, name)} ORDER BY {order}")


def test_every_view_has_its_columns_and_types(store: Store) -> None:
    for name, expected in COLUMNS.items():
        _, described = store.query(f"DESCRIBE TABLE `{store.database}`.`{name}`")
        types = {row[0]: row[1] for row in described}
        assert {c: types.get(c) for c in expected} == expected, name
        assert store.query(analytics.view_sql(store.database, name))[1], f"{name} returned no rows"
    _, comments = store.query(f"SELECT name, comment FROM system.tables WHERE database = '{store.database}'")
    documented = dict(comments)
    assert {v.name: documented.get(v.name) for v in analytics.VIEWS} == {v.name: v.doc for v in analytics.VIEWS}


def test_per_job_ett_gpu_hours_interruptions_and_mtbf(store: Store) -> None:
    a, b = _view(store, "ett_job", "job_id")
    assert (a["job_id"], a["cluster"], a["attempts"], a["gpus"], a["interruptions"]) == ("A", "c1", 2, 8, 1)
    assert a["lifetime_h"] == pytest.approx(6.5) and a["queue_h"] == pytest.approx(1.0)
    assert a["ett_wall"] == pytest.approx(3.5 / 6.5) and a["ett_alloc"] == pytest.approx(3.5 / 5.5)
    assert a["alloc_gpu_h"] == pytest.approx(44.0) and a["lost_gpu_h"] == pytest.approx(16.0)
    assert a["mtbf_h"] == pytest.approx(6.5)
    life_b = 8 + 5 / 60
    assert (b["interruptions"], b["gpus"]) == (2, 16)  # a restart, then a terminal failure
    assert b["lifetime_h"] == pytest.approx(life_b) and b["productive_h"] == pytest.approx(4.75)
    assert b["ett_alloc"] == pytest.approx(4.75 / (life_b - 0.5))
    assert b["lost_gpu_h"] == pytest.approx((life_b - 0.5 - 4.75) * 16)
    assert b["mtbf_h"] == pytest.approx(life_b / 2)


def test_per_cluster_sums_jobs(store: Store) -> None:
    c1, c2 = _view(store, "ett_cluster", "cluster")
    assert (c1["cluster"], c1["jobs"], c1["interruptions"]) == ("c1", 1, 1)
    assert c1["ett_gpu"] == pytest.approx(1 - 16 / 44)
    assert c2["mtbf_h"] == pytest.approx((8 + 5 / 60) / 2)


def test_per_day_splits_intervals_at_midnight(store: Store) -> None:
    days = {(r["day"], r["cluster"]): r for r in _view(store, "ett_daily", "day, cluster")}
    assert set(days) == {(date(2026, 11, 20), "c1"), (date(2026, 11, 21), "c1"), (date(2026, 11, 21), "c2")}
    first = days[(date(2026, 11, 20), "c1")]
    assert first["lifetime_h"] == pytest.approx(2.0) and first["productive_h"] == pytest.approx(0.5)
    assert first["ett_alloc"] == pytest.approx(0.5) and first["lost_gpu_h"] == pytest.approx(4.0)
    second = days[(date(2026, 11, 21), "c1")]
    assert second["lifetime_h"] == pytest.approx(4.5) and second["productive_h"] == pytest.approx(3.0)
    assert second["interruptions"] == 1 and first["interruptions"] == 0
    assert days[(date(2026, 11, 21), "c2")]["interruptions"] == 2


def test_invalid_time_by_kind(store: Store) -> None:
    rows = {(r["cluster"], r["kind"]): r for r in _view(store, "ett_invalid_by_kind", "cluster, kind")}
    assert ("c1", "productive") not in rows
    sched = rows[("c1", "scheduling")]
    assert sched["hours"] == pytest.approx(4 / 3) and sched["queue_h"] == pytest.approx(1.0)
    assert sched["gpu_hours"] == pytest.approx(8 / 3) and sched["share_of_lifetime"] == pytest.approx((4 / 3) / 6.5)
    assert rows[("c1", "initialization")]["hours"] == pytest.approx(2 / 3)
    assert rows[("c2", "checkpoint")]["hours"] == pytest.approx(0.1)
    assert rows[("c2", "recompute")]["gpu_hours"] == pytest.approx(0.9 * 16)


def test_invalid_time_by_cause_category(store: Store) -> None:
    rows = {(r["cluster"], r["cause_source"], r["category"]): r["hours"]
            for r in _view(store, "ett_invalid_by_cause", "cluster, cause_source, category")}
    assert rows == pytest.approx({
        ("c1", "hang_verdict", "hang"): 1 / 6, ("c1", "decision", "hang"): 1 / 3,
        ("c2", "fault", "gpu_fallen_off_bus"): 1 / 60, ("c2", "decision", "gpu_fallen_off_bus"): 29 / 60,
        ("c2", "incident", "cuda_oom"): 1 / 12,
    })


def test_interruptions_overhead_and_lost_gpu_hours(store: Store) -> None:
    rows = {(r["job_id"], r["attempt"]): r for r in _view(store, "ett_interruptions", "job_id, attempt")}
    assert set(rows) == {("A", 0), ("B", 0), ("B", 1)}
    a0, b0, b1 = rows[("A", 0)], rows[("B", 0)], rows[("B", 1)]
    assert (a0["cause_source"], a0["category"], a0["nodes"], a0["node_blamed"]) == ("hang_verdict", "hang", ["n1"], True)
    assert a0["overhead_h"] * 60 == pytest.approx(40.0) and a0["lost_gpu_h"] == pytest.approx(8.0)
    assert (b0["cause_source"], b0["category"], b0["nodes"]) == ("fault", "gpu_fallen_off_bus", ["n9"])
    assert b0["overhead_h"] * 60 == pytest.approx(75.0) and b0["recompute_h"] == pytest.approx(0.9)
    assert b0["lost_gpu_h"] == pytest.approx(34.4)
    assert (b1["cause_source"], b1["category"], b1["node_blamed"]) == ("incident", "cuda_oom", False)
    assert b1["overhead_h"] * 60 == pytest.approx(5.0)


def test_lemon_nodes_and_node_days(store: Store) -> None:
    worst = _rows(store, analytics.lemon_nodes_sql(store.database, limit=5))
    assert [(r["node_id"], r["failures"]) for r in worst] == [("n9", 1), ("n1", 1)]
    assert worst[0]["lost_gpu_h"] == pytest.approx(34.4) and worst[1]["lost_gpu_h"] == pytest.approx(8.0)
    daily = _view(store, "ett_node_failures_daily", "node_id")
    assert [(r["day"], r["node_id"], r["failures"]) for r in daily] == [
        (date(2026, 11, 21), "n1", 1), (date(2026, 11, 21), "n9", 1)]


def test_failure_rate_per_cluster_and_fleet(store: Store) -> None:
    rows = {r["cluster"]: r for r in _rows(store, analytics.failure_rate_sql(store.database, gpus_per_node=8))}
    assert set(rows) == {"c1", "c2", "*"}
    fleet = rows["*"]
    assert (fleet["interruptions"], fleet["node_failures"]) == (3, 2)
    assert fleet["node_days"] == pytest.approx((44 + (8 + 5 / 60 - 0.5) * 16) / 8 / 24)
    assert fleet["r_f"] == pytest.approx(2 / fleet["node_days"])
    assert fleet["mean_overhead_min"] == pytest.approx((40 + 75 + 5) / 3)
    assert rows["c1"]["r_f"] == pytest.approx(1 / (44 / 8 / 24))
    assert fleet["mtbf_h"] == pytest.approx((6.5 + 8 + 5 / 60) / 3)


def test_detection_latency_distribution(store: Store) -> None:
    rows = {(r["cluster"], r["source"]): r for r in _view(store, "ett_detection_latency", "cluster, source")}
    assert rows[("c1", "hang_verdict")]["n"] == 1 and rows[("c1", "hang_verdict")]["max_s"] == pytest.approx(600)
    c2 = rows[("c2", "detection_interval")]
    assert (c2["n"], c2["max_s"]) == (2, pytest.approx(300)) and c2["mean_s"] == pytest.approx(180)
    hist = {(r["cluster"], r["source"], r["le_s"]): r["n"] for r in _view(store, "ett_detection_latency_hist", "le_s")}
    assert hist[("c2", "detection_interval", 64.0)] == 1 and hist[("c2", "detection_interval", 512.0)] == 1


def test_top_jobs_orders_by_lost_gpu_hours(store: Store) -> None:
    rows = _rows(store, analytics.top_jobs_sql(store.database, limit=1))
    assert [r["job_id"] for r in rows] == ["B"]
    with pytest.raises(ValueError):
        analytics.top_jobs_sql(store.database, limit=0)


def test_views_count_reloaded_rows_once(store: Store) -> None:  # last: it writes (the same rows again)
    store.insert(small_history())
    (a, b) = _view(store, "ett_job", "job_id")
    assert a["lifetime_h"] == pytest.approx(6.5) and b["interruptions"] == 2


SPLIT_INVARIANT = {  # view -> ORDER BY; every column but interval counts must match the unsplit history
    "ett_attempts": "job_id, attempt", "ett_job": "job_id", "ett_cluster": "cluster", "ett_daily": "day, cluster",
    "ett_interruptions": "job_id, attempt", "ett_attempt_outcomes": "job_id, attempt", "ett_node_failures": "node_id", "ett_node_failures_daily": "node_id",
    "ett_detection_latency": "cluster, source", "ett_invalid_by_kind": "cluster, kind",
    "ett_invalid_by_cause": "cluster, cause_source, category",
}


def test_intervals_cut_on_the_ett_grid_give_the_same_figures(store: Store, analytics_chdb: Path) -> None:
    split = split_on_grid(small_history())
    assert len(split) > len(small_history())
    database = f"g_{uuid.uuid4().hex[:12]}"
    other = connect(ClickHouseSettings(dsn=f"chdb://{analytics_chdb}", database=database, query_server=False))
    try:
        other.migrate()
        other.insert(split)
        for name, order in SPLIT_INVARIANT.items():
            whole, cut = _view(store, name, order), _view(other, name, order)
            for row in whole + cut:
                row.pop("intervals", None)
            assert _close(cut, whole), (name, cut, whole)
        queue = _rows(other, f"SELECT sum(hours) FROM `{database}`.ett_base WHERE is_queue")
        assert list(queue[0].values())[0] == pytest.approx(1.5)
    finally:
        other.command(f"DROP DATABASE IF EXISTS `{database}`")
        other.close()


def _close(left: list[dict[str, Any]], right: list[dict[str, Any]]) -> bool:
    """Equal rows, floats compared to 1e-9 relative (sums of pieces round differently)."""
    if len(left) != len(right):
        return False
    for a, b in zip(left, right, strict=True):
        if a.keys() != b.keys():
            return False
        for key in a:
            if isinstance(a[key], float) and isinstance(b[key], float):
                if a[key] != pytest.approx(b[key], rel=1e-9, abs=1e-9):
                    return False
            elif a[key] != b[key]:
                return False
    return True
