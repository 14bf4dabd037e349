"""Pure parts of the query path, settings and batching."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from schemas import dead_letter
from sinks.clickhouse.batch import Batch, Consumed
from sinks.clickhouse.errors import QueryRejected
from sinks.clickhouse.query import format_table
from sinks.clickhouse.server import check_read_only, jsonable
from sinks.clickhouse.settings import DEFAULT_DSN, ClickHouseSettings, RetryPolicy


@pytest.mark.parametrize("sql", [
    "SELECT 1", "  select * from t;", "WITH x AS (SELECT 1) SELECT * FROM x", "(SELECT 1)",
    "SHOW TABLES", "DESCRIBE TABLE t", "EXPLAIN SELECT 1", "EXISTS TABLE t",
])
def test_read_only_statements_pass(sql: str) -> None:
    assert check_read_only(sql) == sql.strip().rstrip(";").strip()


@pytest.mark.parametrize("sql", [
    "", " ; ", "INSERT INTO t VALUES (1)", "DROP TABLE t", "SELECT 1; DROP TABLE t",
    "OPTIMIZE TABLE t FINAL", "SELECT 1 INTO OUTFILE '/tmp/x'", "ALTER TABLE t DELETE WHERE 1",
])
def test_anything_else_is_rejected(sql: str) -> None:
    with pytest.raises(QueryRejected):
        check_read_only(sql)


def test_format_table_aligns_and_counts() -> None:
    text = format_table(["a", "long_name"], [[1, None], [22, ["x"]]])
    lines = text.splitlines()
    assert lines[0] == "a   long_name"
    assert lines[2] == "1   NULL"
    assert lines[3] == '22  ["x"]'
    assert lines[-1] == "(2 rows)"
    assert format_table(["a"], []).splitlines()[-1] == "(0 rows)"


def test_jsonable_renders_times_and_nesting() -> None:
    value = jsonable({"t": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), "l": (1, b"x")})
    assert value == {"t": "2026-01-02 03:04:05+00:00", "l": [1, "x"]}


def test_settings_defaults_and_validation(tmp_path: Path) -> None:
    default = ClickHouseSettings()
    assert default.dsn == DEFAULT_DSN and default.embedded
    assert default.chdb_path.parts[-2:] == (".data", "clickhouse")
    s = ClickHouseSettings(dsn=f"chdb://{tmp_path}/ch")
    assert s.query_info_path == tmp_path / "ch.query.json"
    http = ClickHouseSettings(dsn="https://u:p@host:8443/analytics")
    assert not http.embedded and http.effective_database == "analytics"
    assert ClickHouseSettings(dsn="http://host:8123").effective_database == "faultline"
    for bad in ("chdb://relative/path", "mysql://x"):
        with pytest.raises(ValidationError):
            ClickHouseSettings(dsn=bad)
    with pytest.raises(ValidationError):
        ClickHouseSettings(database="bad-name")


def test_retry_policy_grows_and_is_bounded() -> None:
    policy = RetryPolicy(initial_s=0.5, max_s=3.0, multiplier=2.0)
    assert [policy.delay(i) for i in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]


def _consumed(offset: int, partition: int = 0, failed: bool = False) -> Consumed:
    letter = dead_letter(b"x", source_topic="t", stage="decode", error="e", partition=partition, offset=offset)
    return Consumed("t", partition, offset, None, b"x", letter, failed)


def test_batch_due_by_size_or_age_and_tracks_next_offsets() -> None:
    batch = Batch()
    assert not batch.due(2, 1.0, now=100.0)
    batch.add(_consumed(5), now=100.0)
    assert not batch.due(2, 1.0, now=100.5)
    assert batch.due(2, 1.0, now=101.0)
    batch.add(_consumed(9, partition=1, failed=True), now=100.6)
    assert batch.due(2, 60.0, now=100.6)
    assert batch.next_offsets == {("t", 0): 6, ("t", 1): 10}
    assert len(batch.events()) == 1 and len(batch.failures()) == 1
    batch.clear()
    assert len(batch) == 0 and batch.next_offsets == {} and not batch.due(1, 0.1)
