"""The read-only query server a sink runs while it owns a chDB path.

chDB allows one process per data path: while the sink holds it, any other process that
opens the path fails at once (ClickHouse's exclusive ``flock`` on ``<path>/status``). So
the owning sink serves read-only queries on ``127.0.0.1`` (ephemeral port) and publishes
``{pid, host, port, token}`` in ``<path>.query.json`` (mode 0600) next to the data
directory; ``faultline sql`` finds it there. Every query runs on a separate chDB session
with ``readonly=1`` after a statement allow-list check, so the server cannot write.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import threading
from dataclasses import asdict, dataclass
from datetime import date, datetime
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from ipaddress import IPv4Address, IPv6Address
from pathlib import Path
from types import TracebackType
from typing import Any
from uuid import UUID

from sinks.clickhouse.errors import PermanentError, QueryRejected, RetryableError, SinkError
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import Store, connect

log = logging.getLogger(__name__)
READ_ONLY_KEYWORDS = frozenset({"SELECT", "SHOW", "DESCRIBE", "DESC", "WITH", "EXPLAIN", "EXISTS"})
_FIRST_WORD = re.compile(r"^[\s(]*([A-Za-z]+)")
_OUTFILE = re.compile(r"\bINTO\s+OUTFILE\b", re.IGNORECASE)


@dataclass(frozen=True)
class ServerInfo:
    """Where a running sink's query server listens; ``token`` authenticates requests."""

    pid: int
    host: str
    port: int
    token: str
    path: str


def check_read_only(sql: str) -> str:
    """The statement without trailing ``;`` if it is one read-only statement; else QueryRejected."""
    text = sql.strip().rstrip(";").strip()
    if not text:
        raise QueryRejected("empty query")
    if ";" in text:
        raise QueryRejected("one statement per query (';' found)")
    match = _FIRST_WORD.match(text)
    word = match.group(1).upper() if match else ""
    if word not in READ_ONLY_KEYWORDS:
        allowed = ", ".join(sorted(READ_ONLY_KEYWORDS))
        raise QueryRejected(f"only read-only statements ({allowed}) are served, not {word or text[:20]!r}")
    if _OUTFILE.search(text):
        raise QueryRejected("INTO OUTFILE is not served")
    return text


def jsonable(value: Any) -> Any:
    """``value`` as a JSON-ready value: times as ISO text, decimals/UUIDs/IPs as strings."""
    if isinstance(value, (datetime, date)):
        return value.isoformat(sep=" ") if isinstance(value, datetime) else value.isoformat()
    if isinstance(value, (Decimal, UUID, IPv4Address, IPv6Address)):
        return str(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value


def read_info(path: Path) -> ServerInfo | None:
    """The published server of a chDB path, or None when no sink publishes one (or it is unreadable)."""
    try:
        return ServerInfo(**json.loads(path.read_text("utf-8")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError) as exc:
        log.warning("ignoring unreadable query server file %s: %s", path, exc)
        return None


class QueryServer:
    """Serves read-only SQL over HTTP while the owning process holds the chDB path.

    Use as a context manager inside the process that already opened the path; ``enabled``
    False makes it a no-op (server DSNs need no such server).
    """

    def __init__(self, settings: ClickHouseSettings, *, enabled: bool = True) -> None:
        self.settings = settings
        self.enabled = enabled
        self.info: ServerInfo | None = None
        self._httpd: ThreadingHTTPServer | None = None
        self._store: Store | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> QueryServer:
        if self.enabled:
            self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def start(self) -> ServerInfo:
        """Bind, publish the info file and serve in a daemon thread; returns where it listens."""
        self._store = connect(self.settings, readonly=True)
        self._httpd = ThreadingHTTPServer((self.settings.query_host, self.settings.query_port), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.query_server = self  # type: ignore[attr-defined]  # handler back-reference
        host, port = self._httpd.server_address[:2]
        self.info = ServerInfo(os.getpid(), str(host), int(port), secrets.token_hex(16),
                               str(self.settings.chdb_path))
        threading.Thread(target=self._httpd.serve_forever, name="faultline-sql", daemon=True).start()
        _publish(self.settings.query_info_path, self.info)
        return self.info

    def stop(self) -> None:
        """Unpublish, stop serving and close the read-only session; safe to call twice."""
        if self.info is not None:
            _unpublish(self.settings.query_info_path, self.info)
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._store is not None:
            self._store.close()
            self._store = None

    def execute(self, sql: str) -> dict[str, Any]:
        """Run one read-only query and return ``{"columns", "rows"}`` ready for JSON."""
        text = check_read_only(sql)
        if self._store is None:
            raise RetryableError("query server is stopping")
        with self._lock:  # one chDB session; clickhouse-connect serializes it anyway
            cols, rows = self._store.query(text)
        return {"columns": cols, "rows": [jsonable(list(r)) for r in rows]}


def _publish(path: Path, info: ServerInfo) -> None:
    tmp = path.with_name(f"{path.name}.{info.pid}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(asdict(info), handle)
    os.replace(tmp, path)


def _unpublish(path: Path, info: ServerInfo) -> None:
    current = read_info(path)
    if current is not None and current.token == info.token:
        path.unlink(missing_ok=True)


class _Handler(BaseHTTPRequestHandler):
    """``POST /query`` with ``Authorization: Bearer <token>`` and the SQL as the body."""

    def do_POST(self) -> None:  # noqa: N802 (http.server naming)
        server: QueryServer = self.server.query_server  # type: ignore[attr-defined]
        if self.path != "/query":
            return self._reply(404, {"error": "not found", "kind": "permanent"})
        info = server.info
        if info is None or self.headers.get("Authorization") != f"Bearer {info.token}":
            return self._reply(401, {"error": "bad token", "kind": "permanent"})
        length = int(self.headers.get("Content-Length") or 0)
        sql = self.rfile.read(length).decode("utf-8", "replace")
        self._answer(server, sql)

    def _answer(self, server: QueryServer, sql: str) -> None:
        try:
            self._reply(200, server.execute(sql))
        except RetryableError as exc:
            self._reply(503, {"error": str(exc), "kind": "retryable"})
        except (PermanentError, SinkError) as exc:
            self._reply(400, {"error": str(exc), "kind": "permanent"})

    def _reply(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (base class name)
        log.debug("query server: " + format, *args)
