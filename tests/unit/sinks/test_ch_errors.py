"""Retryable vs permanent classification (pure: exceptions are built, nothing is called)."""

from __future__ import annotations

import pytest
from clickhouse_connect.driver import exceptions as chx

from sinks.clickhouse.errors import (
    PathBusyError,
    PermanentError,
    RetryableError,
    classify,
    error_code,
)


@pytest.mark.parametrize("exc", [
    ConnectionRefusedError("refused"),
    TimeoutError("slow"),
    chx.OperationalError("HTTPDriver url http://x:8123 returned connection error"),
    chx.DatabaseError("Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)"),
    chx.DatabaseError("boom", code=252),
    chx.DatabaseError("Code: 60. DB::Exception: Table d.t does not exist. (UNKNOWN_TABLE)"),
])
def test_transient_failures_are_retryable(exc: Exception) -> None:
    wrapped = classify(exc)
    assert isinstance(wrapped, RetryableError)
    assert wrapped.__cause__ is exc


@pytest.mark.parametrize("exc", [
    chx.DataError("Unable to create native array for column `rank`"),
    chx.DatabaseError("Code: 62. DB::Exception: Syntax error (SYNTAX_ERROR)"),
    chx.OperationalError("Code: 53. DB::Exception: Type mismatch (TYPE_MISMATCH)"),
    chx.ProgrammingError("bad"),
    ValueError("bad value"),
    KeyError("no table"),
    FileNotFoundError("missing"),
])
def test_data_and_statement_failures_are_permanent(exc: Exception) -> None:
    assert isinstance(classify(exc), PermanentError)


def test_sink_errors_pass_through_unchanged() -> None:
    busy = PathBusyError("held")
    assert classify(busy) is busy
    assert isinstance(busy, RetryableError)


def test_error_code_parsing() -> None:
    assert error_code("Code: 164. DB::Exception: readonly") == 164
    assert error_code("no code here") is None
