"""``faultline dashboards check``: run every panel's SQL against a database and report its shape.

For each query of every dashboard: the SQL as Grafana would send it (macros and ``$job``
expanded), the column names and ClickHouse types it returns (from ``DESCRIBE (query)``,
so they are known even with zero rows), the row count, and any problem (an error, columns
other than the panel promises, a time series whose first column is not a time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from dashboards.boards import ALL
from dashboards.macros import TimeRange, auto_interval_s, expand
from dashboards.panels import Dashboard
from dashboards.queries import JOBS, PanelQuery
from dashboards.report import Runner
from sinks.clickhouse.errors import SinkError

TIME_TYPES = ("DateTime", "Date")


@dataclass
class PanelCheck:
    """The outcome of one query: shape, rows, and what is wrong with it (empty: nothing)."""

    key: str
    format: str
    expected: list[str]
    columns: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    rows: int = 0
    problems: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the check."""
        return asdict(self)


def until_now(data: TimeRange, now: datetime) -> TimeRange:
    """``data`` stretched past ``now``: pipeline-health panels filter on insert time, not event time.

    One second beyond ``now`` because ``$__timeFilter`` compares with whole seconds, and rows
    inserted earlier in the current second must fall inside.
    """
    end = max(data.end, now + timedelta(seconds=1))
    return TimeRange(data.start, end, auto_interval_s(data.start, end))


def _unique_queries(boards: Sequence[Dashboard]) -> list[PanelQuery]:
    seen: dict[str, PanelQuery] = {}
    for board in boards:
        for query in board.queries():
            seen.setdefault(query.key, query)
    return list(seen.values())


def check_query(runner: Runner, query: PanelQuery, database: str, time_range: TimeRange,
                variables: dict[str, str]) -> PanelCheck:
    """Run ``query`` and describe it; errors become problems, never exceptions."""
    out = PanelCheck(query.key, query.format, list(query.columns))
    sql = expand(query.render(database), time_range, variables)
    try:
        _, described = runner(f"DESCRIBE ({sql})")
        _, rows = runner(sql)
    except (SinkError, ValueError) as exc:  # a failing panel is reported and the others still run
        out.problems.append(f"{type(exc).__name__}: {exc}")
        return out
    out.columns = [str(r[0]) for r in described]
    out.types = [str(r[1]) for r in described]
    out.rows = len(rows)
    if out.columns != out.expected:
        out.problems.append(f"columns {out.columns} differ from the panel's {out.expected}")
    first_type = (out.types or ["none"])[0]
    if (query.format == "time_series" or query.columns[:1] == ("time",)) and not first_type.startswith(TIME_TYPES):
        out.problems.append(f"time column has type {first_type}")
    return out


def check_all(runner: Runner, database: str, time_range: TimeRange,
              boards: Sequence[Dashboard] = ALL) -> list[PanelCheck]:
    """Check every distinct query of ``boards``; ``$job`` takes the first job the data has."""
    _, jobs = runner(expand(JOBS.render(database), time_range))
    variables = {"job": str(jobs[0][0]) if jobs else ""}
    return [check_query(runner, query, database, time_range, variables) for query in _unique_queries(boards)]
