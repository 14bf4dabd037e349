"""Every panel query is well formed: known macros, declared variables, base tables, promised shape."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from dashboards import boards, queries
from dashboards.macros import TimeRange, expand
from dashboards.queries import PanelQuery
from sinks.clickhouse.mapping import TABLES

ALL_QUERIES = sorted({q.key: q for b in boards.ALL for q in b.queries()}.values(), key=lambda q: q.key)
NOW = datetime(2026, 11, 22, tzinfo=UTC)
TR = TimeRange(NOW - timedelta(hours=1), NOW)
TABLE_NAMES = {spec.table for spec in TABLES}


@pytest.mark.parametrize("query", ALL_QUERIES, ids=lambda q: q.key)
def test_query_expands_with_declared_variables_only(query: PanelQuery) -> None:
    sql = expand(query.render("fl_test"), TR, {v: "job-1" for v in query.variables})
    assert "$" not in sql and "{db}" not in sql
    used = set(re.findall(r"\$\{?(?!__)(\w+)", query.sql))
    assert used == set(query.variables)


@pytest.mark.parametrize("query", ALL_QUERIES, ids=lambda q: q.key)
def test_query_reads_base_tables_of_the_rendered_database(query: PanelQuery) -> None:
    sql = query.render("fl_test")
    tables = set(re.findall(r"`fl_test`\.(\w+)", sql))
    assert tables and tables <= TABLE_NAMES


@pytest.mark.parametrize("query", ALL_QUERIES, ids=lambda q: q.key)
def test_time_series_return_time_first(query: PanelQuery) -> None:
    if query.format == "time_series":
        assert query.columns[0] == "time"
        assert re.search(r"\bAS time\b", query.sql)


def test_time_series_without_time_column_is_rejected() -> None:
    with pytest.raises(ValueError):
        PanelQuery("bad", "SELECT 1 AS x", ("x",), "time_series")


def test_every_dashboard_query_is_in_the_registry_once() -> None:
    assert {q.key for q in ALL_QUERIES} <= set(queries.BY_KEY)
    assert len(queries.BY_KEY) == len(queries.ALL)


def test_summary_queries_render_for_the_demo_database() -> None:
    for query in (*queries.SUMMARY.values(), queries.FAULT_ROWS):
        assert "`faultline`." in query.render("faultline")
