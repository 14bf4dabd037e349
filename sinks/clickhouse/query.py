"""Ad-hoc SQL for ``faultline sql``: through a running sink's query server, or directly.

For a chDB DSN whose path a sink holds, the query goes to that sink's read-only server
(see ``server.py``); with no sink running, chDB is opened in this process for the one
query and released. Server DSNs are queried directly. Rows come back JSON-ready (times as
ISO text) whichever way the query went, so output does not depend on the route.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from typing import Any

from sinks.clickhouse.errors import PathBusyError, PermanentError, RetryableError, SinkError
from sinks.clickhouse.server import ServerInfo, check_read_only, jsonable, read_info
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import connect

log = logging.getLogger(__name__)
Result = tuple[list[str], list[list[Any]]]
DSN_ENV = "FAULTLINE_CLICKHOUSE_DSN"
BUSY_POLL_S = 0.2


class ServerUnavailable(RetryableError):
    """The published query server did not answer (its sink died or is shutting down)."""


def run_sql(settings: ClickHouseSettings, sql: str, *, allow_write: bool = False) -> Result:
    """Run one statement and return (columns, JSON-ready rows).

    Read-only statements only, unless ``allow_write`` (honoured on direct connections; a
    running sink's server never writes). For a chDB path held by another process without a
    server, waits up to ``settings.busy_wait_s`` and then raises PathBusyError.
    """
    text = sql if allow_write else check_read_only(sql)
    if not settings.embedded:
        return _direct(settings, text, allow_write)
    deadline = time.monotonic() + settings.busy_wait_s
    while True:
        try:
            return _embedded_once(settings, text, allow_write)
        except PathBusyError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(BUSY_POLL_S)


def _embedded_once(settings: ClickHouseSettings, sql: str, allow_write: bool) -> Result:
    info = read_info(settings.query_info_path)
    if info is not None and _alive(info.pid):
        try:
            return via_server(info, sql, settings.query_timeout_s)
        except ServerUnavailable as exc:  # stale file or a sink shutting down: try the path itself
            log.info("query server unavailable, opening chDB directly: %s", exc)
    return _direct(settings, sql, allow_write)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _direct(settings: ClickHouseSettings, sql: str, allow_write: bool) -> Result:
    store = connect(settings, readonly=not allow_write)
    try:
        cols, rows = store.query(sql)
    finally:
        store.close()
    return cols, [jsonable(list(row)) for row in rows]


def via_server(info: ServerInfo, sql: str, timeout_s: float) -> Result:
    """Send ``sql`` to a sink's query server; ServerUnavailable when it does not answer."""
    request = urllib.request.Request(
        f"http://{info.host}:{info.port}/query", data=sql.encode("utf-8"), method="POST",
        headers={"Authorization": f"Bearer {info.token}", "Content-Type": "text/plain"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            body = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise _server_error(exc) from exc
    except OSError as exc:  # refused / reset / timeout: the sink is gone or stopping
        raise ServerUnavailable(f"query server {info.host}:{info.port} did not answer: {exc}") from exc
    return list(body["columns"]), [list(row) for row in body["rows"]]


def _server_error(exc: urllib.error.HTTPError) -> SinkError:
    try:
        body = json.loads(exc.read())
    except ValueError:
        body = {"error": str(exc), "kind": "permanent"}
    kind = ServerUnavailable if body.get("kind") == "retryable" else PermanentError
    return kind(str(body.get("error")))


def format_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """An aligned text table with a header and a row count; zero rows still prints the header."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    line = lambda values: "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()  # noqa: E731
    out = [line(list(columns)), line(["-" * w for w in widths])]
    out += [line(r) for r in cells]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faultline sql", description="Ad-hoc SQL on the faultline tables.")
    parser.add_argument("sql", help="one statement, e.g. \"SELECT * FROM faultline.node_faults\"")
    parser.add_argument("--dsn", help=f"chdb:///path or http(s)://user:pass@host:8123/db (env {DSN_ENV})")
    parser.add_argument("--database", default=None, help="default database name (faultline)")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    parser.add_argument("--busy-wait", type=float, default=None, metavar="SECONDS",
                        help="how long to wait for a chDB path held by a process without a query server")
    parser.add_argument("--write", action="store_true", help="allow non-SELECT statements (direct only)")
    return parser


def sql_main(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    """Entry point of ``faultline sql``: 0 ok, 1 query failed, 2 usage error, 3 unavailable.

    ``environ`` (the caller passes ``os.environ``) may give ``FAULTLINE_CLICKHOUSE_DSN``.
    """
    args = _parser().parse_args(list(argv) if argv is not None else None)
    try:
        settings = _settings(args, environ or {})
    except ValueError as exc:
        print(f"faultline sql: {exc}", file=sys.stderr)
        return 2
    try:
        cols, rows = run_sql(settings, args.sql, allow_write=args.write)
    except RetryableError as exc:
        print(f"faultline sql: unavailable: {exc}", file=sys.stderr)
        return 3
    except SinkError as exc:
        print(f"faultline sql: {exc}", file=sys.stderr)
        return 1
    print(format_table(cols, rows) if args.format == "table" else json.dumps({"columns": cols, "rows": rows}))
    return 0


def _settings(args: argparse.Namespace, environ: Mapping[str, str]) -> ClickHouseSettings:
    values: dict[str, Any] = {}
    dsn = args.dsn or environ.get(DSN_ENV)
    if dsn:
        values["dsn"] = dsn
    if args.database:
        values["database"] = args.database
    if args.busy_wait is not None:
        values["busy_wait_s"] = args.busy_wait
    return ClickHouseSettings(**values)
