"""The demo's closing report: detected vs injected, and a few SQL results, read from ClickHouse."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from dashboards import queries
from schemas import parse_time
from sinks.clickhouse.query import format_table, run_sql
from sinks.clickhouse.settings import ClickHouseSettings

DATABASE = "faultline"
QUERIES = {name: query.render(DATABASE) for name, query in queries.SUMMARY.items()}
"""The demo's text tables; their SQL lives in ``dashboards.queries.SUMMARY``."""


def _rows(ch: ClickHouseSettings, sql: str) -> list[dict[str, Any]]:
    columns, rows = run_sql(ch, sql)
    return [dict(zip(columns, row, strict=True)) for row in rows]


def _time(value: Any) -> datetime:
    return value if isinstance(value, datetime) else parse_time(str(value).replace(" ", "T") + ("" if "Z" in str(value) or "+" in str(value) else "Z"))


def _match(truth: Any, found: dict[str, list[dict[str, Any]]]) -> str:
    """One line: was this injected incident detected, how fast, and was it attributed right."""
    onset = truth.onset
    if truth.kind == "hang":
        hits = [v for v in found["hang verdicts"] if v["job_id"] == truth.job_id]
        if not hits:
            return "MISSED"
        lag = (_time(hits[0]["detected_at"]) - onset).total_seconds()
        right = sorted(hits[0]["source_nodes"]) == sorted(truth.node_ids)
        return f"detected after {lag:.0f} s, source {list(hits[0]['source_nodes'])} ({'exact' if right else 'WRONG'})"
    if truth.kind == "slow_node":
        hits = [v for v in found["slow nodes"] if v["node_id"] in truth.node_ids]
        return f"detected after {(_time(hits[0]['detected_at']) - onset).total_seconds():.0f} s" if hits else "MISSED"
    if truth.kind in ("xid", "oom"):
        hits = [f for f in found["faults"] if f["category"] == truth.category
                and (f["node_id"] in truth.node_ids or f["job_id"] == truth.job_id)]
        return f"classified {truth.category} ({sum(f['count'] for f in hits)} lines)" if hits else "MISSED"
    if truth.kind.startswith("trap"):
        hits = [v for v in found["hang verdicts"] if v["job_id"] == truth.job_id]
        return "no false hang verdict (correct)" if not hits else "FALSE hang verdict"
    return ""


def report(dsn: str, truth: Sequence[Any], counts: dict[str, int]) -> None:
    """Print detected vs injected, then the SQL results."""
    ch = ClickHouseSettings(dsn=dsn)
    found = {name: _rows(ch, sql) for name, sql in QUERIES.items()}
    found["faults"] = _rows(ch, queries.FAULT_ROWS.render(DATABASE))
    print("\nDetected vs injected:")
    for item in truth:
        where = item.job_id or ",".join(item.node_ids)
        print(f"  {item.kind:16} {where:12} {(item.category or ''):22} -> {_match(item, found)}")
    print("\nDerived events on Kafka: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for name, sql in QUERIES.items():
        columns, rows = run_sql(ch, sql)
        print(f"\n{name}  ({sql.split(' FROM ')[1].split()[0]})")
        print(format_table(columns, rows))


def write_html(dsn: str, out: Path) -> int:
    """Write the HTML report of ``dsn`` to ``out`` (``faultline report``); prints the path, returns its exit code."""
    from dashboards.cli import report_main

    return report_main(["--dsn", dsn, "--database", DATABASE, "--out", str(out), "--title", "faultline demo report"],
                       environ={})
