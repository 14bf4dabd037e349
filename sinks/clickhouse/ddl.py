"""Versioned DDL: the ``schema_migrations`` table and the ordered list of migrations.

Migration 1 creates one ReplacingMergeTree table per derived kind (from the mapping table
in :mod:`sinks.clickhouse.mapping`) plus a few views. Every statement is idempotent
(``IF NOT EXISTS``), so a migration interrupted half-way is safe to re-run, and two
migrators racing each other converge. Rules for later versions: never edit an applied
migration's meaning; add migration N (e.g. ``ALTER TABLE ... ADD COLUMN IF NOT EXISTS``)
when a model gains an optional field. Pure: renders SQL text, runs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sinks.clickhouse.mapping import TABLES, TableSpec, columns

MIGRATIONS_TABLE = "schema_migrations"


@dataclass(frozen=True)
class Migration:
    """One schema version: ``render(database)`` gives its statements, applied in order."""

    version: int
    name: str
    render: Callable[[str], tuple[str, ...]]


def ident(name: str) -> str:
    """A backquoted ClickHouse identifier (column names such as ``end`` or ``offset`` are keywords)."""
    return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`"


def qualified(database: str, table: str) -> str:
    """``database.table`` with both parts quoted."""
    return f"{ident(database)}.{ident(table)}"


def bootstrap(database: str) -> tuple[str, ...]:
    """Statements run before any migration: the database and the migrations ledger."""
    return (
        f"CREATE DATABASE IF NOT EXISTS {ident(database)}",
        f"CREATE TABLE IF NOT EXISTS {qualified(database, MIGRATIONS_TABLE)} ("
        "version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3, 'UTC')"
        ") ENGINE = ReplacingMergeTree ORDER BY version",
    )


def create_table(spec: TableSpec, database: str) -> str:
    """The ``CREATE TABLE IF NOT EXISTS`` of one derived kind, deduplicating on its id."""
    cols = [f"  {ident(c.name)} {c.ch_type}" for c in columns(spec)]
    cols.append("  `_inserted_at` DateTime64(3, 'UTC') DEFAULT now64(3, 'UTC')")
    body = ",\n".join(cols)
    return (
        f"CREATE TABLE IF NOT EXISTS {qualified(database, spec.table)} (\n{body}\n)\n"
        f"ENGINE = ReplacingMergeTree({ident(spec.version_column)})\n"
        f"PARTITION BY toYYYYMM({ident(spec.partition_time)})\n"
        f"ORDER BY {ident(spec.id_column)}"
    )


_VIEWS: dict[str, str] = {
    "faults_latest": "SELECT * FROM {t[faults]} FINAL",
    "node_faults": (
        "SELECT node_id, count() AS faults, sum(`count`) AS occurrences,"
        " max(coalesce(last_seen, first_seen)) AS last_seen_at,"
        " argMax(category, coalesce(last_seen, first_seen)) AS last_category,"
        " argMax(fault_id, coalesce(last_seen, first_seen)) AS last_fault_id"
        " FROM {t[faults]} FINAL WHERE node_id IS NOT NULL GROUP BY node_id"
    ),
    "decisions_per_action": (
        "SELECT action, count() AS decisions, countIf(guard IS NOT NULL) AS guarded,"
        " uniqExact(job_id) AS jobs, max(issued_at) AS last_issued_at"
        " FROM {t[decisions]} FINAL GROUP BY action"
    ),
    "ett_by_job": (
        "SELECT job_id, kind, count() AS intervals,"
        " sum(dateDiff('millisecond', `start`, `end`)) / 1000.0 AS seconds"
        " FROM {t[ett_intervals]} FINAL GROUP BY job_id, kind"
    ),
    "dead_letters_by_stage": (
        "SELECT source_topic, stage, count() AS messages, max(event_time) AS last_at"
        " FROM {t[dead_letters]} FINAL GROUP BY source_topic, stage"
    ),
}


def create_views(database: str) -> tuple[str, ...]:
    """The ``CREATE VIEW IF NOT EXISTS`` statements of migration 1."""
    tables = {spec.table: qualified(database, spec.table) for spec in TABLES}
    return tuple(
        f"CREATE VIEW IF NOT EXISTS {qualified(database, name)} AS {sql.format(t=tables)}"
        for name, sql in _VIEWS.items()
    )


def _v1(database: str) -> tuple[str, ...]:
    return tuple(create_table(spec, database) for spec in TABLES) + create_views(database)


def _add_columns(table: str, names: tuple[str, ...]) -> Callable[[str], tuple[str, ...]]:
    """A migration adding model fields that a later v1 extension brought to ``table``.

    Fresh databases already have them from migration 1 (generated from the models), hence
    ``IF NOT EXISTS``; databases created before the extension get them here.
    """
    def render(database: str) -> tuple[str, ...]:
        spec = next(s for s in TABLES if s.table == table)
        cols = {c.name: c for c in columns(spec)}
        return tuple(f"ALTER TABLE {qualified(database, table)} ADD COLUMN IF NOT EXISTS "
                     f"{ident(name)} {cols[name].ch_type}" for name in names)
    return render


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "derived tables and views", _v1),
    Migration(2, "fault.gpu_pci and fault.action", _add_columns("faults", ("gpu_pci", "action"))),
    Migration(3, "ett_interval.gpus", _add_columns("ett_intervals", ("gpus",))),
    Migration(4, "incidents table", lambda database: (create_table(next(s for s in TABLES if s.table == "incidents"), database),)),
    Migration(5, "ETT analytics views", lambda database: _analytics_views(database)),
)


def _analytics_views(database: str) -> tuple[str, ...]:
    from sinks.clickhouse.analytics import create_views  # analytics imports this module: import late

    return create_views(database)


def pending(applied: set[int]) -> tuple[Migration, ...]:
    """Migrations not in ``applied``, in version order; empty when the schema is current."""
    return tuple(m for m in sorted(MIGRATIONS, key=lambda m: m.version) if m.version not in applied)


def latest_version() -> int:
    """The version the schema has after every migration ran."""
    return max(m.version for m in MIGRATIONS)
