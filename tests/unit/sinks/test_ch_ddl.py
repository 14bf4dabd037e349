"""Versioned DDL text (pure)."""

from __future__ import annotations

import re

from sinks.clickhouse.ddl import (
    MIGRATIONS,
    bootstrap,
    create_table,
    create_views,
    ident,
    latest_version,
    pending,
)
from sinks.clickhouse.mapping import TABLES


def test_migration_one_creates_every_table_then_views() -> None:
    statements = MIGRATIONS[0].render("db")
    names = [re.search(r"`db`\.`(\w+)`", s) for s in statements]
    tables = [m.group(1) for m in names if m is not None]
    assert len(tables) == len(statements)
    assert tables[: len(TABLES)] == [s.table for s in TABLES]
    assert {"faults_latest", "node_faults", "decisions_per_action", "ett_by_job"} <= set(tables)
    assert all("IF NOT EXISTS" in s for s in statements)


def test_faults_dedup_on_fault_id_keeping_highest_count() -> None:
    sql = create_table(TABLES[0], "db")
    assert "ENGINE = ReplacingMergeTree(`count`)" in sql
    assert sql.rstrip().endswith("ORDER BY `fault_id`")
    assert "`last_seen` Nullable(DateTime64(3, 'UTC'))" in sql


def test_other_tables_use_the_ingest_version_and_their_id() -> None:
    by_table = {s.table: create_table(s, "db") for s in TABLES}
    assert "ReplacingMergeTree(`_version`)" in by_table["decisions"]
    assert "ORDER BY `decision_id`" in by_table["decisions"]
    assert "ORDER BY `verdict_id`" in by_table["hang_verdicts"]
    assert "ORDER BY `event_id`" in by_table["dead_letters"]
    assert "`end` DateTime64(3, 'UTC')" in by_table["ett_intervals"]


def test_views_read_deduplicated_rows() -> None:
    views = create_views("db")
    assert views and all(" FINAL" in v for v in views)


def test_versions_are_unique_and_pending_skips_applied() -> None:
    versions = [m.version for m in MIGRATIONS]
    assert versions == sorted(set(versions)) and versions[0] == 1
    assert [m.version for m in pending(set())] == versions
    assert pending(set(versions)) == ()
    assert latest_version() == versions[-1]


def test_bootstrap_creates_database_and_ledger_idempotently() -> None:
    db, ledger = bootstrap("x1")
    assert db == "CREATE DATABASE IF NOT EXISTS `x1`"
    assert "`x1`.`schema_migrations`" in ledger and "IF NOT EXISTS" in ledger


def test_ident_escapes_backquotes() -> None:
    assert ident("a`b") == "`a\\`b`"
