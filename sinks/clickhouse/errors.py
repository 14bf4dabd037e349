"""One exception root for the ClickHouse sink, split into retryable and permanent.

Retryable errors (connection refused, timeouts, server overload, a chDB path held by
another process) are retried with backoff; permanent ones (bad data, type errors, SQL
errors) are not: a batch that fails permanently is bisected and the bad events are
dead-lettered. :func:`classify` is the one place that decides which is which.
"""

from __future__ import annotations

import re
import socket

from clickhouse_connect.driver import exceptions as chx

_CODE_RE = re.compile(r"\bCode:\s*(\d+)")

# ClickHouse error codes that mean "try again later": overload, timeouts, network, cluster.
RETRYABLE_CODES = frozenset({
    3,    # UNEXPECTED_END_OF_FILE
    60,   # UNKNOWN_TABLE: schema being restored/migrated; no single event is at fault
    81,   # UNKNOWN_DATABASE: same
    159,  # TIMEOUT_EXCEEDED
    202,  # TOO_MANY_SIMULTANEOUS_QUERIES
    209,  # SOCKET_TIMEOUT
    210,  # NETWORK_ERROR
    225,  # NO_ZOOKEEPER
    236,  # ABORTED
    241,  # MEMORY_LIMIT_EXCEEDED
    242,  # TABLE_IS_READ_ONLY
    252,  # TOO_MANY_PARTS
    319,  # UNKNOWN_STATUS_OF_INSERT
    394,  # QUERY_WAS_CANCELLED
    425,  # SYSTEM_ERROR
    999,  # KEEPER_EXCEPTION
    1000,  # POCO_EXCEPTION
})

# Codes that look operational but are caused by the data or the statement itself.
PERMANENT_CODES = frozenset({
    6, 26, 27, 38, 41, 72,  # CANNOT_PARSE_*
    16,   # NO_SUCH_COLUMN_IN_TABLE
    43,   # ILLEGAL_TYPE_OF_ARGUMENT
    53,   # TYPE_MISMATCH
    62,   # SYNTAX_ERROR
    69,   # ARGUMENT_OUT_OF_BOUND
    70,   # CANNOT_CONVERT_TYPE
    117,  # INCORRECT_DATA
    164,  # READONLY
})


class SinkError(Exception):
    """Root of every error raised by ``sinks.clickhouse``."""


class RetryableError(SinkError):
    """A transient failure: the same operation may succeed later; back off and retry."""


class PermanentError(SinkError):
    """A failure that will repeat on retry: bad data, type errors, invalid SQL."""


class PathBusyError(RetryableError):
    """The chDB path is held by another process (chDB allows one process per path)."""


class QueryRejected(PermanentError):
    """A query sent to the read-only query server is not a read-only statement."""


def classify(exc: BaseException) -> SinkError:
    """Wrap ``exc`` in :class:`RetryableError` or :class:`PermanentError` (sink errors pass through).

    Unknown exception types are permanent: retrying what we do not understand would stall
    the sink forever, while a dead letter keeps the evidence.
    """
    if isinstance(exc, SinkError):
        return exc
    message = f"{type(exc).__name__}: {exc}"
    kind = RetryableError if _is_retryable(exc) else PermanentError
    error = kind(message)
    error.__cause__ = exc
    return error


def _is_retryable(exc: BaseException) -> bool:
    if isinstance(exc, (ConnectionError, TimeoutError, socket.timeout)):
        return True
    if isinstance(exc, chx.Error):
        return _clickhouse_retryable(exc)
    return isinstance(exc, OSError) and not isinstance(exc, (FileNotFoundError, PermissionError))


def _clickhouse_retryable(exc: chx.Error) -> bool:
    code = exc.code if exc.code is not None else error_code(str(exc))
    if code in RETRYABLE_CODES:
        return True
    if code in PERMANENT_CODES:
        return False
    return isinstance(exc, chx.OperationalError)


def error_code(message: str) -> int | None:
    """The ClickHouse error code in ``message`` (``"Code: 60. ..."``), or None."""
    match = _CODE_RE.search(message)
    return int(match.group(1)) if match else None
