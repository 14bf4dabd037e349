"""The ClickHouse store: one clickhouse-connect client, migrations, batched inserts, queries.

``connect(settings)`` opens chDB in-process for ``chdb:///path`` DSNs and an HTTP(S)
client for server DSNs; everything after that is the same code. Every failure leaves this
module as a :class:`RetryableError` or a :class:`PermanentError` (see ``errors.py``).
"""

from __future__ import annotations

import fcntl
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import clickhouse_connect
from clickhouse_connect.driver.client import Client
from clickhouse_connect.driver.exceptions import ProgrammingError

from sinks.clickhouse.ddl import MIGRATIONS_TABLE, bootstrap, pending, qualified
from sinks.clickhouse.errors import PathBusyError, PermanentError, classify
from sinks.clickhouse.mapping import Columns, Row, TableSpec, columns, group_columns, is_time, millisecond_ticks
from sinks.clickhouse.settings import ClickHouseSettings

log = logging.getLogger(__name__)

Rows = list[tuple[Any, ...]]


class Store:
    """A connected ClickHouse (server or chDB) holding the derived tables of one database.

    Not thread-safe: use one Store per thread (chDB allows many clients on one path inside
    the process that owns it).
    """

    def __init__(self, client: Client, settings: ClickHouseSettings) -> None:
        self._client = client
        self.settings = settings
        self.database = settings.effective_database

    def migrate(self) -> int:
        """Bring the schema to the latest version; returns how many migrations ran (0: current).

        Safe to call on every start and from several processes: statements are idempotent.
        """
        for sql in bootstrap(self.database):
            self.command(sql)
        todo = pending(self.applied_versions())
        for migration in todo:
            for sql in migration.render(self.database):
                self.command(sql)
            self._record(migration.version, migration.name)
            log.info("applied migration %d (%s)", migration.version, migration.name)
        return len(todo)

    def applied_versions(self) -> set[int]:
        """Versions recorded in ``schema_migrations``; empty before the first migration."""
        _, rows = self.query(f"SELECT version FROM {qualified(self.database, MIGRATIONS_TABLE)}")
        return {int(row[0]) for row in rows}

    def _record(self, version: int, name: str) -> None:
        table = qualified(self.database, MIGRATIONS_TABLE)
        self.command(f"INSERT INTO {table} (version, name) VALUES ({int(version)}, {_quote(name)})")

    def insert(self, events: Sequence[Row]) -> int:
        """Insert ``events`` (derived kinds only, or their mirrors), one insert per table; returns rows written.

        Zero events is a no-op returning 0. Raises RetryableError when the whole call may be
        retried (duplicates are harmless: tables deduplicate on the derived id), and
        PermanentError when the data itself is rejected.
        """
        try:
            grouped = group_columns(events, time.time_ns())
        except (KeyError, TypeError, ValueError) as exc:
            raise classify(exc) from exc
        for spec, data in grouped.items():
            self.insert_columns(spec, data)
        return len(events)

    def insert_columns(self, spec: TableSpec, data: Columns) -> None:
        """Insert column-oriented ``data`` (``mapping.to_columns``) into ``spec``'s table.

        The column types come from the mapping, so no ``DESCRIBE`` round trip precedes the
        insert; times go to the driver as integer milliseconds, which it writes as they are
        (its own datetime conversion costs several times more). Errors are classified as in
        :meth:`insert`.
        """
        cols = columns(spec)
        try:
            data = [millisecond_ticks(v) if is_time(c) else v for c, v in zip(cols, data, strict=True)]
        except (TypeError, ValueError) as exc:
            raise classify(exc) from exc
        self._call(self._client.insert, spec.table, data, column_names=[c.name for c in cols],
                   column_type_names=[c.ch_type for c in cols], column_oriented=True, database=self.database)

    def query(self, sql: str) -> tuple[list[str], Rows]:
        """Run one statement and return (column names, rows); commands return no rows."""
        result = self._call(self._client.query, sql)
        return list(result.column_names), [tuple(row) for row in result.result_rows]

    def command(self, sql: str) -> None:
        """Run one statement that returns no rows (DDL, OPTIMIZE, ...); errors are classified."""
        self._call(self._client.command, sql)

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:  # one catch point: every driver error leaves classified
            raise classify(exc) from exc

    def close(self) -> None:
        """Release the client (for chDB: this process's handle on the path)."""
        self._client.close()


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def connect(settings: ClickHouseSettings, *, readonly: bool = False) -> Store:
    """Open a Store for ``settings.dsn``; ``readonly`` makes the session refuse writes.

    Raises PathBusyError (retryable) when another process holds the chDB path,
    RetryableError when a server is unreachable, PermanentError for a bad DSN.
    """
    extra = {"readonly": "1"} if readonly else {}
    if settings.embedded:
        return Store(_chdb_client(settings, extra), settings)
    return Store(_http_client(settings, extra), settings)


def _chdb_client(settings: ClickHouseSettings, extra: dict[str, str]) -> Client:
    path = settings.chdb_path
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return clickhouse_connect.get_client(dsn=f"chdb://{path}", settings=extra)
    except ProgrammingError as exc:
        holder = busy_holder(path)
        if holder is not None:
            raise PathBusyError(f"chDB path {path} is held by another process ({holder})") from exc
        raise PermanentError(f"cannot open chDB at {path}: {exc}") from exc
    except Exception as exc:  # the engine reports every open failure differently
        raise classify(exc) from exc


def busy_holder(path: Path) -> str | None:
    """Who holds the chDB path: ``"PID: n"`` if another process has it locked, else None.

    ClickHouse takes an exclusive ``flock`` on ``<path>/status`` for the engine's lifetime
    (released by the kernel even on SIGKILL) and writes its PID there. Probing takes and
    immediately drops that lock, so call it only after an open failed.
    """
    status = path / "status"
    try:
        with status.open("rb") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                first = handle.readline().decode("utf-8", "replace").strip()
                return first or "unknown process"
            fcntl.flock(handle, fcntl.LOCK_UN)
    except FileNotFoundError:
        return None
    return None


def _http_client(settings: ClickHouseSettings, extra: dict[str, str]) -> Client:
    url = urlsplit(settings.dsn)
    try:
        return clickhouse_connect.get_client(
            host=url.hostname or "localhost",
            port=url.port or (8443 if url.scheme == "https" else 8123),
            username=unquote(url.username or "default"),
            password=unquote(url.password or ""),
            secure=url.scheme == "https",
            connect_timeout=settings.connect_timeout_s,
            send_receive_timeout=settings.send_receive_timeout_s,
            settings=extra,
        )
    except Exception as exc:  # connection refused and friends become RetryableError
        raise classify(exc) from exc
